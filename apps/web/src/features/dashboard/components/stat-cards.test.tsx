import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildDashboard } from '../../../test/factories';
import { StatCards } from './stat-cards';

/** The value (<dd>) that belongs to a label (<dt>). */
function valueOf(label: string): string | null {
  const term = screen.getByText(label, { selector: 'dt' });
  return within(term.parentElement!).getByRole('definition').textContent;
}

describe('StatCards', () => {
  it('shows the four counts under their labels', () => {
    const { statistics } = buildDashboard({ pending: 3, inProgress: 2, completed: 1 });
    render(<StatCards statistics={statistics} />);
    expect(valueOf('Total Tasks')).toBe('6');
    expect(valueOf('Pending Tasks')).toBe('3');
    expect(valueOf('In Progress Tasks')).toBe('2');
    expect(valueOf('Completed Tasks')).toBe('1');
  });

  it('separates thousands with commas', () => {
    const { statistics } = buildDashboard({ pending: 1200, inProgress: 34, completed: 1_000_000 });
    render(<StatCards statistics={statistics} />);
    expect(valueOf('Total Tasks')).toBe('1,001,234');
    expect(valueOf('Pending Tasks')).toBe('1,200');
    expect(valueOf('Completed Tasks')).toBe('1,000,000');
  });

  it('shows zeros rather than blanks for an empty workspace', () => {
    render(<StatCards statistics={buildDashboard().statistics} />);
    expect(screen.getAllByRole('definition').map((value) => value.textContent)).toEqual([
      '0',
      '0',
      '0',
      '0',
    ]);
  });
});
