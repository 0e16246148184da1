import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { TaskStatusFilter } from '../api/get-tasks';
import { nextTabIndex, StatusTabs } from './status-tabs';

const summary = { all: 6, pendingTasks: 1, inProgressTasks: 2, completedTasks: 3 };

function Tabs({ withSummary = true }: { withSummary?: boolean }) {
  const [selected, setSelected] = useState<TaskStatusFilter>('All');
  return (
    <>
      <StatusTabs
        selected={selected}
        onSelect={setSelected}
        summary={withSummary ? summary : undefined}
        idPrefix="t"
        panelId="panel"
      />
      <div role="tabpanel" id="panel" />
    </>
  );
}

describe('StatusTabs', () => {
  it('shows All, Pending, In Progress and Completed with their counts', () => {
    render(<Tabs />);
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual([
      'All 6',
      'Pending 1',
      'In Progress 2',
      'Completed 3',
    ]);
    expect(screen.getByRole('tablist', { name: 'Task status' })).toBeInTheDocument();
    for (const tab of tabs) expect(tab).toHaveAttribute('aria-controls', 'panel');
  });

  it('leaves the counts out until the summary has loaded', () => {
    render(<Tabs withSummary={false} />);
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'All',
      'Pending',
      'In Progress',
      'Completed',
    ]);
  });

  it('selects All first and a tab when clicked, with one tab in the Tab order', () => {
    render(<Tabs />);
    expect(screen.getByRole('tab', { selected: true })).toHaveAccessibleName('All 6');
    fireEvent.click(screen.getByRole('tab', { name: /In Progress/ }));
    const selected = screen.getByRole('tab', { selected: true });
    expect(selected).toHaveAccessibleName('In Progress 2');
    expect(selected).toHaveAttribute('tabindex', '0');
    expect(screen.getByRole('tab', { name: /All/ })).toHaveAttribute('tabindex', '-1');
  });

  it('moves and selects with the arrow keys, Home and End', () => {
    render(<Tabs />);
    const all = screen.getByRole('tab', { name: /All/ });
    all.focus();
    fireEvent.keyDown(all, { key: 'ArrowRight' });
    const pending = screen.getByRole('tab', { name: /Pending/ });
    expect(pending).toHaveAttribute('aria-selected', 'true');
    expect(pending).toHaveFocus();
    fireEvent.keyDown(pending, { key: 'ArrowLeft' });
    fireEvent.keyDown(all, { key: 'ArrowLeft' });
    expect(screen.getByRole('tab', { name: /Completed/ })).toHaveFocus();
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    expect(all).toHaveAttribute('aria-selected', 'true');
    fireEvent.keyDown(all, { key: 'End' });
    expect(screen.getByRole('tab', { name: /Completed/ })).toHaveAttribute('aria-selected', 'true');
  });

  it('wraps around at both ends and ignores other keys', () => {
    expect(nextTabIndex('ArrowRight', 3, 4)).toBe(0);
    expect(nextTabIndex('ArrowLeft', 0, 4)).toBe(3);
    expect(nextTabIndex('Enter', 1, 4)).toBeNull();
  });
});
