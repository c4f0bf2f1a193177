/** What a test needs to call the API as a browser: cookies and the JSON of an answer. */
import type { MessageValues } from '@pulsecheck/shared/i18n/translate';
import { translateMessage } from '../lib/app-error';
import { translatorFor } from '../lib/i18n';

/** A minimal cookie jar: keeps name=value pairs from Set-Cookie headers, drops expired ones. */
export class CookieJar {
  private cookies = new Map<string, string>();

  store(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = header.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const expired = attributes.some((a) => /max-age=0\b/i.test(a.trim())) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  header(): Record<string, string> {
    return this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {};
  }
}

/** Whatever signs a request in: a cookie jar, or anything else that gives its headers. */
export type Jar = Pick<CookieJar, 'header'>;

export type ErrorJson = { error: { code: string; message: string; fields?: Record<string, string> } };

/** The JSON body of an answer, as `T` (an error answer unless told otherwise). */
export const json = async <T = ErrorJson>(response: Response) => (await response.json()) as T;

/**
 * A message as the API answers it in English (no Accept-Language): a shared or server catalogue key
 * ('auth.emailRequired', what the shared `*_MESSAGES` hold) in its English words; other text as it is.
 */
export const english = (message: string, values?: MessageValues) =>
  translateMessage(translatorFor('en'), message, values);
