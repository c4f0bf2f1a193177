import { describe, expect, it } from 'vitest';
import { emailAddress, requiredText, wholeNumber } from './fields';

const first = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe('shared field rules', () => {
  it('requiredText trims, refuses blank and too long text with the given messages', () => {
    const name = requiredText('Name is required', 5, 'Too long');
    expect(name.parse('  Ada ')).toBe('Ada');
    expect(first(name.safeParse('   '))).toBe('Name is required');
    expect(first(name.safeParse(undefined))).toBe('Name is required');
    expect(first(name.safeParse('Adelaide'))).toBe('Too long');
    expect(first(requiredText('x', 2).safeParse('abc'))).toBe('Must be at most 2 characters');
  });

  it('emailAddress lower-cases a valid address and names what is wrong', () => {
    const email = emailAddress({ required: 'Email is required', invalid: 'Email is invalid' });
    expect(email.parse(' Ada@Example.COM ')).toBe('ada@example.com');
    expect(first(email.safeParse(''))).toBe('Email is required');
    expect(first(email.safeParse('ada@example'))).toBe('Email is invalid');
    expect(first(email.safeParse(`${'a'.repeat(250)}@b.co`))).toBe('Email is invalid');
  });

  it('wholeNumber accepts its range only, with one message', () => {
    const dots = wholeNumber(1, 10, 'From 1 to 10');
    expect(dots.parse(10)).toBe(10);
    for (const bad of [0, 11, 2.5, '3', null]) expect(first(dots.safeParse(bad))).toBe('From 1 to 10');
  });
});
