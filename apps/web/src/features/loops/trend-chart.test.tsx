import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { segments, ticks, TrendChart } from './trend-chart';

describe('trend chart', () => {
  it('breaks a line where a round has no value', () => {
    expect(
      segments([
        { round: 1, value: 3 },
        { round: 2, value: null },
        { round: 3, value: 4 },
        { round: 4, value: 4.5 },
      ]),
    ).toEqual([
      [{ round: 1, value: 3 }],
      [
        { round: 3, value: 4 },
        { round: 4, value: 4.5 },
      ],
    ]);
  });

  it('puts at most about five ticks on the value axis', () => {
    expect(ticks(1, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(ticks(-100, 100)).toEqual([-100, -50, 0, 50, 100]);
    expect(ticks(0, 100)).toEqual([0, 20, 40, 60, 80, 100]);
  });

  it('draws one line per series and names the chart, with a legend when a question was reworded', () => {
    const { container } = render(
      <TrendChart
        label="Mean of question 1 by round"
        rounds={[1, 2, 3]}
        min={1}
        max={5}
        series={[
          {
            id: 'a',
            label: 'Old wording',
            points: [
              { round: 1, value: 3 },
              { round: 2, value: 3.5 },
            ],
          },
          { id: 'b', label: 'New wording', points: [{ round: 3, value: 4 }] },
        ]}
      />,
    );
    expect(screen.getByRole('img', { name: 'Mean of question 1 by round' })).toBeInTheDocument();
    expect(container.querySelectorAll('polyline')).toHaveLength(2);
    expect(container.querySelectorAll('circle')).toHaveLength(3);
    expect(screen.getByText('New wording')).toBeInTheDocument();
  });
});
