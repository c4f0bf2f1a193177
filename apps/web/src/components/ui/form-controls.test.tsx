import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Checkbox } from './checkbox';
import { Input } from './input';
import { Label } from './label';
import { Switch } from './switch';

/** The text of the elements `element`'s aria-labelledby names (empty when it names none, or none exists). */
const labelledByText = (element: HTMLElement) =>
  (element.getAttribute('aria-labelledby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

describe('form controls name themselves for every assistive technology', () => {
  it('a checkbox and a switch are named by their Label through aria-labelledby as well as <label for>', () => {
    render(
      <>
        <Checkbox id="remember-me" />
        <Label htmlFor="remember-me">Remember me</Label>
        <Switch id="require-two-factor" />
        <Label htmlFor="require-two-factor">Require two-factor sign-in</Label>
      </>,
    );
    const checkbox = screen.getByRole('checkbox', { name: 'Remember me' });
    expect(labelledByText(checkbox)).toBe('Remember me');
    const toggle = screen.getByRole('switch', { name: 'Require two-factor sign-in' });
    expect(labelledByText(toggle)).toBe('Require two-factor sign-in');
  });

  it('keeps a name given otherwise', () => {
    render(
      <>
        <Checkbox id="a" aria-label="Choose Ana" />
        <span id="named">Notify me</span>
        <Switch id="b" aria-labelledby="named" />
      </>,
    );
    expect(screen.getByRole('checkbox', { name: 'Choose Ana' })).not.toHaveAttribute('aria-labelledby');
    expect(screen.getByRole('switch', { name: 'Notify me' })).toHaveAttribute('aria-labelledby', 'named');
  });

  it('an input always has a type, text unless given', () => {
    render(
      <>
        <Input aria-label="Full Name" autoComplete="name" />
        <Input aria-label="Email" type="email" autoComplete="email" />
      </>,
    );
    expect(screen.getByRole('textbox', { name: 'Full Name' })).toHaveAttribute('type', 'text');
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveAttribute('type', 'email');
  });
});
