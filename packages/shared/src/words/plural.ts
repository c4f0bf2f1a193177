/**
 * Every count the product says ('1 dot', '2 dots', '1 team is', '3 teams are'), through one plural rule: the
 * language's own categories (Intl.PluralRules), so no screen, e-mail or message spells its own `n === 1 ? … : …`.
 */
const RULES = new Intl.PluralRules('en-US');

/** The word for `n`: `one` where the language says singular, else `other` (by default `one` + 's'). */
export const pluralWord = (n: number, one: string, other = `${one}s`): string =>
  RULES.select(n) === 'one' ? one : other;

/** `n` and its word: '1 dot', '5 dots', '0 dots'. */
export const countOf = (n: number, one: string, other?: string): string =>
  `${n} ${pluralWord(n, one, other)}`;
