import type { ParticipationRating } from '@pulsecheck/shared/participation/rules';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { RatingOptions } from './rating-options';

function Harness() {
  const [value, setValue] = useState<ParticipationRating | undefined>(undefined);
  return (
    <>
      <h2 id="title">Decisions</h2>
      <RatingOptions value={value} onChange={setValue} labelledBy="title" />
    </>
  );
}

describe('rating options', () => {
  it('is one radio group of the four ratings, reached with Tab and moved with the arrow keys', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const group = screen.getByRole('radiogroup', { name: 'Decisions' });
    expect(group).toBeInTheDocument();
    const radios = screen.getAllByRole('radio');
    expect(radios.map((r) => r.textContent)).toEqual([
      'HealthyWorking well1',
      'Needs ImprovementCould be better2',
      'Fire WarningNeeds urgent attention3',
      "I Don't KnowNot familiar with this area4",
    ]);
    expect(radios.every((r) => r.getAttribute('aria-checked') === 'false')).toBe(true);

    await user.tab();
    expect(radios[0]).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(radios[0]).toHaveAttribute('aria-checked', 'true');
    await user.keyboard('{ArrowRight}');
    expect(radios[1]).toHaveAttribute('aria-checked', 'true');
    expect(radios[1]).toHaveFocus();
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(radios[3]).toHaveAttribute('aria-checked', 'true');
    // Only the chosen radio is in the tab order.
    expect(radios.map((r) => r.tabIndex)).toEqual([-1, -1, -1, 0]);

    await user.click(screen.getByRole('radio', { name: /Fire Warning/ }));
    expect(radios[2]).toHaveAttribute('aria-checked', 'true');
    expect(radios[3]).toHaveAttribute('aria-checked', 'false');
  });
});
