import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DashboardGreeting } from './dashboard-greeting';

describe('DashboardGreeting', () => {
  it.each([
    [9, 'Good Morning! Alice'],
    [13, 'Good Afternoon! Alice'],
    [18, 'Good Evening! Alice'],
    [22, 'Good Night! Alice'],
  ])('at %i:00 says %s', (hour, text) => {
    render(<DashboardGreeting name="Alice" now={new Date(2025, 0, 1, hour)} />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(text);
  });

  it("shows today's date", () => {
    render(<DashboardGreeting name="Alice" now={new Date(2025, 0, 1, 9)} />);
    expect(screen.getByText('Wednesday 1st Jan 2025')).toBeInTheDocument();
  });
});
