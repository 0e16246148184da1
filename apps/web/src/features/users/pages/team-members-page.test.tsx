import type { UserWithTaskCounts } from '@task-manager/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { downloadFile } from '../../../lib/download';
import { stubApi, type RecordedRequest } from '../../../test/stub-api';
import { fakeWindowLayout } from '../../../test/window-layout';
import { TeamMembersPage } from './team-members-page';

vi.mock('../../../lib/download', () => ({ downloadFile: vi.fn() }));

function buildUser(overrides: Partial<UserWithTaskCounts> = {}): UserWithTaskCounts {
  return {
    _id: '00000000-0000-4000-8000-000000000001',
    name: 'Mia Member',
    email: 'mia@example.com',
    role: 'member',
    profileImageUrl: null,
    createdAt: '2031-01-01T00:00:00.000Z',
    updatedAt: '2031-01-01T00:00:00.000Z',
    pendingTasks: 2,
    inProgressTasks: 1234,
    completedTasks: 0,
    ...overrides,
  };
}

type Answer = { status: number; data: unknown; headers?: Record<string, string> };
let answer: (request: RecordedRequest) => Answer | Promise<Answer>;
let stub: ReturnType<typeof stubApi>;
beforeEach(() => {
  stub = stubApi((request) => {
    if (request.url !== '/api/users')
      throw new Error(`unexpected ${request.method} ${request.url}`);
    return answer(request);
  });
});
afterEach(() => {
  stub.restore();
  vi.restoreAllMocks();
});

/** One page of users as the server answers it: `limit` from the offset in `cursor`. */
function pageOf(users: UserWithTaskCounts[], request: RecordedRequest): Answer {
  const start = Number(request.params?.cursor ?? 0);
  const end = start + Number(request.params?.limit);
  const headers: Record<string, string> = end < users.length ? { 'X-Next-Cursor': `${end}` } : {};
  return { status: 200, data: users.slice(start, end), headers };
}

function open() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <TeamMembersPage />
      <Toaster />
    </QueryClientProvider>,
  );
}

describe('the Team Members page', { timeout: 30_000 }, () => {
  it('shows a card per user with avatar, name, email and the task counts', async () => {
    answer = () => ({ status: 200, data: [buildUser()] });
    open();
    expect(screen.getByRole('heading', { name: 'Team Members' })).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Loading team members' })).toBeInTheDocument();
    const card = (await screen.findByText('Mia Member')).closest<HTMLElement>('[role="listitem"]')!;
    expect(within(card).getByRole('img', { name: 'Mia Member' })).toBeInTheDocument();
    expect(within(card).getByText('mia@example.com')).toBeInTheDocument();
    const count = (label: string) => within(card).getByText(label).nextElementSibling;
    expect(count('Pending')).toHaveTextContent('2');
    expect(count('In Progress')).toHaveTextContent('1,234');
    expect(count('Completed')).toHaveTextContent('0');
  });

  it("says 'No team members yet' when there are none", async () => {
    answer = () => ({ status: 200, data: [] });
    open();
    expect(await screen.findByText('No team members yet')).toBeInTheDocument();
  });

  it('downloads the report as user_details.xlsx and says so', async () => {
    answer = () => ({ status: 200, data: [] });
    vi.mocked(downloadFile).mockResolvedValueOnce(undefined);
    open();
    await userEvent
      .setup({ delay: null })
      .click(screen.getByRole('button', { name: 'Download Report' }));
    expect(downloadFile).toHaveBeenCalledWith('/api/reports/export/users', 'user_details.xlsx');
    expect(await screen.findByText('Team report downloaded successfully')).toBeInTheDocument();
  });

  it('says when the report cannot be downloaded', async () => {
    answer = () => ({ status: 200, data: [] });
    vi.mocked(downloadFile).mockRejectedValueOnce(new Error('offline'));
    open();
    await userEvent
      .setup({ delay: null })
      .click(screen.getByRole('button', { name: 'Download Report' }));
    expect(
      await screen.findByText('Failed to download user details. Please try again.'),
    ).toBeInTheDocument();
  });

  it('loads the next page with the X-Next-Cursor as the end nears, rendering only rows near the screen', async () => {
    const team = Array.from({ length: 120 }, (_, index) =>
      buildUser({
        _id: `00000000-0000-4000-8000-${String(index + 1).padStart(12, '0')}`,
        name: `Member ${String(index + 1).padStart(3, '0')}`,
        email: `member${index + 1}@example.com`,
      }),
    );
    answer = (request) => pageOf(team, request);
    // The grid's row estimate, so no row is re-measured; rows are 170 + 16 px apart.
    const layout = fakeWindowLayout({ rowHeight: 170 });
    const rowTop = (row: number) => row * 186;
    const cursors = () => stub.requests.map((request) => request.params?.cursor);
    try {
      open();
      expect(await screen.findByText('Member 001')).toBeInTheDocument();
      expect(stub.requests[0]!.params).toEqual({ limit: 50 });
      const list = screen.getByRole('list', { name: 'Team members' });
      const cards = () => within(list).getAllByRole('listitem');
      expect(cards().length).toBeLessThan(15);
      // More pages to come: the list's size is not known yet.
      expect(cards()[0]).toHaveAttribute('aria-setsize', '-1');
      expect(cards()[0]).toHaveAttribute('aria-posinset', '1');

      layout.scrollWindowTo(rowTop(20));
      expect(await screen.findByText('Member 021')).toBeInTheDocument();
      expect(cursors()).toEqual([undefined]);

      layout.scrollWindowTo(rowTop(47));
      await waitFor(() => expect(cursors()).toEqual([undefined, '50']));
      expect(await screen.findByText('Member 051')).toBeInTheDocument();
      layout.scrollWindowTo(rowTop(97));
      await waitFor(() => expect(cursors()).toEqual([undefined, '50', '100']));
      layout.scrollWindowTo(rowTop(119));
      expect(await screen.findByText('Member 120')).toBeInTheDocument();
      expect(cursors()).toEqual([undefined, '50', '100']);
      const shown = cards();
      expect(shown.at(-1)).toHaveAttribute('aria-posinset', '120');
      expect(shown.at(-1)).toHaveAttribute('aria-setsize', '120');
      const names = shown.map((card) => card.querySelector('p')!.textContent);
      expect(new Set(names).size).toBe(names.length);
    } finally {
      layout.restore();
    }
  });
});
