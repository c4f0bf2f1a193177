import { type MessageFormatElement, parse, TYPE } from '@formatjs/icu-messageformat-parser';
import { isPseudoLocale, type Locale, type PseudoLocale } from './languages.ts';
import type { Messages } from './translate.ts';

/** Latin letters and their accented look-alikes: readable, and plainly not the English text. */
const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((ch, i) => [
    ch,
    [...'ȧƀƈḓḗƒɠħīĵķŀḿƞǿƥɋřşŧŭṽẇẋẏẑȦƁƇḒḖƑƓĦĪĴĶĿḾȠǾƤɊŘŞŦŬṼẆẊẎẐ'][i] ?? ch,
  ]),
);

const RLO = '\u202e';
const PDF = '\u202c';

function pseudoText(text: string, locale: PseudoLocale): string {
  const accented = [...text].map((ch) => ACCENTED[ch] ?? ch).join('');
  return locale === 'ar-XB' ? `${RLO}${accented}${PDF}` : accented;
}

/** Length of the literal text a message shows (its longest option where it has several). */
function literalLength(elements: MessageFormatElement[]): number {
  let length = 0;
  for (const element of elements) {
    if (element.type === TYPE.literal) length += element.value.length;
    else if (element.type === TYPE.tag) length += literalLength(element.children);
    else if (element.type === TYPE.plural || element.type === TYPE.select)
      length += Math.max(0, ...Object.values(element.options).map((o) => literalLength(o.value)));
  }
  return length;
}

function transform(elements: MessageFormatElement[], locale: PseudoLocale): MessageFormatElement[] {
  return elements.map((element) => {
    if (element.type === TYPE.literal) return { ...element, value: pseudoText(element.value, locale) };
    if (element.type === TYPE.tag) return { ...element, children: transform(element.children, locale) };
    if (element.type === TYPE.plural || element.type === TYPE.select)
      return {
        ...element,
        options: Object.fromEntries(
          Object.entries(element.options).map(([name, option]) => [
            name,
            { ...option, value: transform(option.value, locale) },
          ]),
        ),
      };
    return element;
  });
}

/**
 * A message in a pseudo-locale: its literal text accented (right to left in `ar-XB`), 30% longer and wrapped in
 * ⟦ ⟧, its placeholders, plurals and tags kept as they are.
 */
function pseudoLocalize(elements: MessageFormatElement[], locale: PseudoLocale): MessageFormatElement[] {
  const padding = '·'.repeat(Math.ceil(literalLength(elements) * 0.3));
  return [
    { type: TYPE.literal, value: '⟦' },
    ...transform(elements, locale),
    { type: TYPE.literal, value: `${padding}⟧` },
  ];
}

/**
 * A catalogue made ready to use (Node only: the web's build and the server parse; the browser gets the result and
 * no parser): each ICU message parsed, or kept as its text where it is only text; a pseudo-locale's made from
 * English. A message that does not parse stops the build (and fails the catalogue test) with its key.
 */
export function compileCatalogue(messages: Record<string, string>, locale: Locale): Messages {
  const compiled: Record<string, string | MessageFormatElement[]> = {};
  for (const [key, message] of Object.entries(messages)) {
    let elements: MessageFormatElement[];
    try {
      // Skeletons parsed here, so a number's own format ('{ratio, number, ::.00}') needs no parser where it is said.
      elements = parse(message, { shouldParseSkeletons: true });
    } catch (error) {
      throw new Error(`${key}: ${error instanceof Error ? error.message : String(error)} in "${message}"`);
    }
    if (isPseudoLocale(locale)) elements = pseudoLocalize(elements, locale);
    compiled[key] = elements.every((element) => element.type === TYPE.literal)
      ? elements.map((element) => (element.type === TYPE.literal ? element.value : '')).join('')
      : elements;
  }
  return compiled;
}
