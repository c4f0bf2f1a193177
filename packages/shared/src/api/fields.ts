import { z } from 'zod';

/**
 * The field rules that forms share, each written once. Every one takes the feature's own messages, so the
 * wording stays where the spec puts it.
 */

/** Text a person must fill in: trimmed, not empty, at most `max` characters. */
export const requiredText = (required: string, max: number, tooLong = `Must be at most ${max} characters`) =>
  z.string({ error: required }).trim().min(1, required).max(max, tooLong);

/** An e-mail address as people type it: trimmed, checked and lower-cased. */
export const emailAddress = (messages: { required: string; invalid: string }) =>
  z
    .string({ error: messages.required })
    .trim()
    .min(1, messages.required)
    .max(254, messages.invalid)
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, messages.invalid)
    .transform((value) => value.toLowerCase());

/** A whole number from `min` to `max`; anything else gets the one `message`. */
export const wholeNumber = (min: number, max: number, message: string) =>
  z.number({ error: message }).int(message).min(min, message).max(max, message);
