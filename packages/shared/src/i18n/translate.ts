import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat, type PrimitiveType } from 'intl-messageformat';
import { baseLanguage, isPseudoLocale, type Language, languageNameIn, type Locale } from './languages';
import { readMessage } from './message';

/**
 * A compiled catalogue (`compileCatalogue`): message keys ('dashboard.title') to their text where a message is
 * only text, else to the ICU message parsed ahead, so the browser loads no parser.
 */
export type Messages = Readonly<Record<string, string | MessageFormatElement[]>>;

/** What a message's placeholders take. */
export type MessageValues = Record<string, PrimitiveType>;

/** A message's placeholders, where some are rich: `<link>…</link>` in the message, a function here. */
export type RichValues<T> = Record<string, PrimitiveType | T | ((chunks: (string | T)[]) => T)>;

/** Marks a formatted date, number or list in a pseudo-locale, as its messages are marked. */
const pseudoMark = (text: string) => `⟦${text}⟧`;

/**
 * Everything a side says in one language: messages by key, and Intl's dates, numbers, percentages and lists in
 * that language. Made once per language and kept: its formats are made on first use and cached.
 */
export class Translator {
  readonly intlLocale: string;
  private readonly formats = new Map<string, IntlMessageFormat>();
  private readonly intl = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.ListFormat>();

  private readonly messages: Record<string, Messages[string]>;

  constructor(
    readonly locale: Locale,
    messages: Messages,
    /** What to do with a key no catalogue holds: by default its key is shown (and the completeness test fails). */
    private readonly onMissing: (key: string) => void = () => {},
  ) {
    this.intlLocale = baseLanguage(locale);
    this.messages = { ...messages };
  }

  /** Adds a part of the catalogue (the web loads one per page: apps/web/src/lib/i18n.tsx). */
  add(messages: Messages): void {
    Object.assign(this.messages, messages);
  }

  has(key: string): boolean {
    // Own keys only: a text such as 'valueOf' or 'constructor' is not a message.
    return Object.hasOwn(this.messages, key);
  }

  /** The message's text when it is only text, else its format (made once). */
  private format(key: string): string | IntlMessageFormat {
    const made = this.formats.get(key);
    if (made) return made;
    const message = this.has(key) ? this.messages[key] : undefined;
    if (message === undefined) {
      this.onMissing(key);
      return key;
    }
    if (typeof message === 'string') return message;
    const format = new IntlMessageFormat(message, this.intlLocale);
    this.formats.set(key, format);
    return format;
  }

  /** The message `key` in this language, its placeholders filled: `t('results.dots', { count: 3 })`. */
  t(key: string, values?: MessageValues): string {
    const format = this.format(key);
    if (typeof format === 'string') return format;
    const text = format.format<string>(values);
    return Array.isArray(text) ? text.join('') : String(text);
  }

  /**
   * A text that may be a message: a key ('loops.roundClosed'), or a key with its values (`messageWith`, message.ts),
   * said in this language, values that are themselves such messages first; any other text (a name, a message the
   * server already translated) as it is.
   */
  say(text: string): string {
    const { key, values } = readMessage(text);
    if (!this.has(key)) return text;
    if (!values) return this.t(key);
    return this.t(
      key,
      Object.fromEntries(
        Object.entries(values).map(([name, value]) => [
          name,
          typeof value === 'string' ? this.say(value) : value,
        ]),
      ),
    );
  }

  /** A message with tags (`Read the <link>terms</link>`), each made by its function: text and elements. */
  rich<T>(key: string, values: RichValues<T>): string | T | (string | T)[] {
    const format = this.format(key);
    return typeof format === 'string' ? format : format.format<T>(values);
  }

  private cached<F extends Intl.DateTimeFormat | Intl.NumberFormat | Intl.ListFormat>(
    id: string,
    make: () => F,
  ): F {
    let made = this.intl.get(id);
    if (!made) {
      made = make();
      this.intl.set(id, made);
    }
    return made as F;
  }

  private marked(text: string) {
    return isPseudoLocale(this.locale) ? pseudoMark(text) : text;
  }

  /** A date, a time or both, as this language writes them. */
  date(value: Date | string | number, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }): string {
    const format = this.cached(
      `d${JSON.stringify(options)}`,
      () => new Intl.DateTimeFormat(this.intlLocale, options),
    );
    return this.marked(format.format(new Date(value)));
  }

  /** A number ('1,234.5' in English, '1.234,5' in German); `style: 'percent'` for a share of 1. */
  number(value: number, options: Intl.NumberFormatOptions = {}): string {
    const format = this.cached(
      `n${JSON.stringify(options)}`,
      () => new Intl.NumberFormat(this.intlLocale, options),
    );
    return this.marked(format.format(value));
  }

  /** A share of 1 as a whole percentage: 0.58 → '58%' in English, '58 %' in German and French. */
  percent(share: number): string {
    return this.number(share, { style: 'percent', maximumFractionDigits: 0 });
  }

  /** A language's name in this language: 'German' in English, 'allemand' in French (Intl). */
  languageName(language: Language): string {
    return this.marked(languageNameIn(language, this.locale));
  }

  /** Items as a sentence's list: 'A, B and C' ('A, B et C'). */
  list(items: readonly string[], type: 'conjunction' | 'disjunction' = 'conjunction'): string {
    const format = this.cached(`l${type}`, () => new Intl.ListFormat(this.intlLocale, { type }));
    return this.marked(format.format(items));
  }
}
