import { clsx, type ClassValue } from 'clsx';
import { createTailwindMerge } from 'tailwind-merge';

/*
 * tailwind-merge's engine with the class groups this app's components let a caller override (a button's size, a
 * card's padding, a label's weight, a text's size or colour…), instead of its default configuration of every
 * Tailwind utility: that one weighs 6 KiB gzipped in every page's first load (decision 0027). A class of a
 * group not listed here is kept as it is, as `clsx` would; cn.test.ts checks the result against the full
 * configuration on the overrides the app makes.
 */
const any = () => true;
const COLOR = /^(inherit|current|transparent|black|white|[a-z]+-\d{2,3}(\/\d+)?|\[.+\]|\(.+\))$/;
const isColor = (value: string) => COLOR.test(value);
const isNumber = (value: string) => /^\d+$/.test(value);
const FONT_SIZES = ['xs', 'sm', 'base', 'lg', 'xl', '2xl', '3xl', '4xl', '5xl', '6xl', '7xl', '8xl', '9xl'];
const isRadius = (value: string) => /^(none|xs|sm|md|lg|xl|2xl|3xl|4xl|full|\[.+\])$/.test(value);

const sides = (prefix: string) =>
  Object.fromEntries(
    ['', 'x', 'y', 's', 'e', 't', 'r', 'b', 'l'].map((side) => [
      `${prefix}${side}`,
      [{ [`${prefix}${side}`]: [any] }],
    ]),
  );

const twMerge = createTailwindMerge(() => ({
  cacheSize: 500,
  theme: {},
  classGroups: {
    display: [
      'block',
      'inline-block',
      'inline',
      'flex',
      'inline-flex',
      'grid',
      'inline-grid',
      'hidden',
      'contents',
    ],
    ...sides('p'),
    ...sides('m'),
    w: [{ w: [any] }],
    h: [{ h: [any] }],
    size: [{ size: [any] }],
    'min-w': [{ 'min-w': [any] }],
    'min-h': [{ 'min-h': [any] }],
    'max-w': [{ 'max-w': [any] }],
    'max-h': [{ 'max-h': [any] }],
    gap: [{ gap: [any] }],
    'gap-x': [{ 'gap-x': [any] }],
    'gap-y': [{ 'gap-y': [any] }],
    'justify-content': [
      { justify: ['start', 'end', 'center', 'between', 'around', 'evenly', 'stretch', 'normal'] },
    ],
    'align-items': [{ items: ['start', 'end', 'center', 'baseline', 'stretch'] }],
    'align-self': [{ self: ['auto', 'start', 'end', 'center', 'stretch', 'baseline'] }],
    'font-size': [{ text: FONT_SIZES }],
    'text-alignment': [{ text: ['left', 'center', 'right', 'justify', 'start', 'end'] }],
    'text-color': [{ text: [isColor] }],
    'font-weight': [
      { font: ['thin', 'extralight', 'light', 'normal', 'medium', 'semibold', 'bold', 'extrabold', 'black'] },
    ],
    leading: [{ leading: [any] }],
    'bg-color': [{ bg: [isColor] }],
    'border-w': [{ border: ['', isNumber] }],
    'border-color': [{ border: [isColor] }],
    rounded: [{ rounded: ['', isRadius] }],
    ...Object.fromEntries(
      ['s', 'e', 't', 'r', 'b', 'l'].map((side) => [
        `rounded-${side}`,
        [{ [`rounded-${side}`]: ['', isRadius] }],
      ]),
    ),
    shadow: [{ shadow: ['', 'none', 'xs', 'sm', 'md', 'lg', 'xl', '2xl'] }],
    'ring-w': [{ ring: ['', isNumber] }],
    'ring-color': [{ ring: [isColor] }],
    whitespace: [{ whitespace: ['normal', 'nowrap', 'pre', 'pre-line', 'pre-wrap', 'break-spaces'] }],
  },
  conflictingClassGroups: {
    p: ['px', 'py', 'ps', 'pe', 'pt', 'pr', 'pb', 'pl'],
    px: ['pr', 'pl', 'ps', 'pe'],
    py: ['pt', 'pb'],
    m: ['mx', 'my', 'ms', 'me', 'mt', 'mr', 'mb', 'ml'],
    mx: ['mr', 'ml', 'ms', 'me'],
    my: ['mt', 'mb'],
    size: ['w', 'h'],
    gap: ['gap-x', 'gap-y'],
    'font-size': ['leading'],
    rounded: ['rounded-s', 'rounded-e', 'rounded-t', 'rounded-r', 'rounded-b', 'rounded-l'],
  },
  conflictingClassGroupModifiers: { 'font-size': ['leading'] },
  orderSensitiveModifiers: [],
}));

export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs));
}
