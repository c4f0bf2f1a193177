import { twMerge } from 'tailwind-merge';
import { describe, expect, it } from 'vitest';
import { cn } from './cn';
import corpus from './cn.test-corpus.json';

describe('cn', () => {
  // The class lists the components make when a caller overrides their classes (recorded from the components'
  // tests), and the other overrides a caller may make: the reduced configuration merges them as the full one does.
  it.each(corpus)('merges "%s" as tailwind-merge with every utility does', (classes) => {
    expect(cn(classes)).toBe(twMerge(classes));
  });

  it('joins conditional classes', () => {
    expect(cn('p-2', false, undefined, { 'font-bold': true, hidden: false })).toBe('p-2 font-bold');
  });
});
