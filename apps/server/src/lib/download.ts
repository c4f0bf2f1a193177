import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { LANGUAGE_COOKIE, type Locale } from '@pulsecheck/shared/i18n/languages';
import { downloaderLanguage } from '../mail/language';
import type { AppEnv } from './router';

/** A download's Content-Disposition, its file name reduced to safe characters. */
export const attachment = (filename: string) => `attachment; filename="${filename.replace(/[^\w.-]/g, '_')}"`;

/** The headers of a CSV download. */
export const csvHeaders = (filename: string) => ({
  'Content-Type': 'text/csv; charset=utf-8',
  'Content-Disposition': attachment(filename),
});

/**
 * The language of a file the signed-in `userId` downloads with request `c` (`downloaderLanguage`: their stored
 * choice, else the browser's language cookie, else its Accept-Language).
 */
export const downloadLanguage = (c: Context<AppEnv>, userId: string): Promise<Locale> => {
  const { db, config } = c.get('deps');
  return downloaderLanguage(
    db,
    userId,
    { cookie: getCookie(c, LANGUAGE_COOKIE), acceptLanguage: c.req.header('accept-language') },
    config,
  );
};
