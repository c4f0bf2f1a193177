import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { AppError } from './app-error';

/**
 * Refuses request bodies over `maxSize` bytes with 413 before they are read. A declared Content-Length is
 * checked as it is (Node's parser never reads past it), which keeps the hot path free of hono's bodyLimit:
 * that one wraps every body in a web stream, which cost autosave an eighth of its CPU. Bodies without a
 * length (chunked) go through hono's counting stream. `except` is a path with a limit of its own.
 */
export function limitBody(
  maxSize: number,
  message: string,
  options: { except?: string } = {},
): MiddlewareHandler {
  const tooLarge = () => new AppError('payload_too_large', message);
  const counting = bodyLimit({
    maxSize,
    onError: () => {
      throw tooLarge();
    },
  });
  return async (c, next) => {
    if (c.req.path === options.except) return next();
    const length = c.req.header('content-length');
    if (length === undefined) return counting(c, next);
    if (Number(length) > maxSize) throw tooLarge();
    await next();
  };
}
