/**
 * A message that has to travel as one text: a zod issue's message, or the answer of a shared rule that a screen
 * shows and the server sends ('The audience has 2 members, fewer than the 3 responses needed…'). It is a catalogue
 * key with the values of its placeholders, written into one string by `messageWith`; `say()` on the web and the
 * server's `translateMessage` read it back and put it into words in their language (decision 0027). A message
 * without placeholders needs none of this: its key alone is the message.
 *
 * A value may itself be a key or such a message (a date in words, say): it is said in the same language first.
 * Without dependencies, so the rules that paint the first screen can use it.
 */

/** What a placeholder of a travelling message takes. */
export type MessageValue = string | number;
export type TravellingValues = Readonly<Record<string, MessageValue>>;

/** Between the key and its values: a character no key and no sentence of the catalogues holds. */
const SEPARATOR = '\u001f';

/** The key `key` with its placeholders' values, as one text. */
export const messageWith = (key: string, values: TravellingValues): string =>
  `${key}${SEPARATOR}${JSON.stringify(values)}`;

const isValue = (value: unknown): value is MessageValue =>
  typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

/** A text read back: its key and values when `messageWith` made it, else the text itself as the key. */
export function readMessage(text: string): { key: string; values?: Record<string, MessageValue> } {
  const at = text.indexOf(SEPARATOR);
  if (at < 0) return { key: text };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.slice(at + SEPARATOR.length));
  } catch {
    return { key: text };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { key: text };
  const values: Record<string, MessageValue> = {};
  for (const [name, value] of Object.entries(parsed)) if (isValue(value)) values[name] = value;
  return { key: text.slice(0, at), values };
}
