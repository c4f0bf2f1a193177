import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DistributionBar } from './distribution-bar';

describe('DistributionBar', () => {
  it("shows three parts summing to 100% and the don't-know count apart", () => {
    render(<DistributionBar counts={{ healthy: 1, needsImprovement: 1, fireWarning: 1, dontKnow: 4 }} />);
    const bar = screen.getByRole('img', {
      name: "Healthy 1, Needs Improvement 1, Fire Warning 1, Don't Know 4",
    });
    const widths = [...bar.querySelectorAll('span')].map((s) => s.style.width);
    expect(widths).toEqual(['34%', '33%', '33%']);
    expect(screen.getByText("4 don't know")).toBeInTheDocument();
  });

  it('draws an empty bar when nothing was rated', () => {
    render(<DistributionBar counts={{ healthy: 0, needsImprovement: 0, fireWarning: 0, dontKnow: 2 }} />);
    expect(
      screen
        .getByRole('img', { name: "Healthy 0, Needs Improvement 0, Fire Warning 0, Don't Know 2" })
        .querySelectorAll('span'),
    ).toHaveLength(0);
  });
});
