import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PRIORITY_COLOURS } from './chart-data';
import { PriorityTooltip } from './priority-tooltip';

describe('PriorityTooltip', () => {
  it('shows nothing while no bar is hovered', () => {
    const { container } = render(<PriorityTooltip active={false} payload={[]} />);
    expect(container).toBeEmptyDOMElement();
  });

  it("says 'No data available' when the hovered point has no rows", () => {
    render(<PriorityTooltip active payload={[]} />);
    expect(screen.getByText('No data available')).toBeInTheDocument();
  });

  it('says it with no payload at all', () => {
    render(<PriorityTooltip active />);
    expect(screen.getByText('No data available')).toBeInTheDocument();
  });

  it('names the priority in its colour and gives the count', () => {
    render(
      <PriorityTooltip
        active
        payload={[{ payload: { priority: 'High', count: 1234, fill: PRIORITY_COLOURS.High } }]}
      />,
    );
    expect(screen.getByText('High')).toHaveStyle({ color: PRIORITY_COLOURS.High });
    expect(screen.getByText('1234')).toBeInTheDocument();
    expect(screen.getByText(/Count:/)).toHaveTextContent('Count: 1234');
    expect(screen.queryByText('No data available')).not.toBeInTheDocument();
  });
});
