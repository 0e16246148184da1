import type { UserWithTaskCounts } from '@task-manager/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/download';
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

let answer: () => Promise<UserWithTaskCounts[]>;
beforeEach(() => {
  vi.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url !== '/api/users') throw new Error(`unexpected GET ${url}`);
    return { data: await answer() };
  });
});
afterEach(() => vi.restoreAllMocks());

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
    answer = async () => [buildUser()];
    open();
    expect(screen.getByRole('heading', { name: 'Team Members' })).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Loading team members' })).toBeInTheDocument();
    const card = (await screen.findByText('Mia Member')).closest('li')!;
    expect(within(card).getByRole('img', { name: 'Mia Member' })).toBeInTheDocument();
    expect(within(card).getByText('mia@example.com')).toBeInTheDocument();
    const count = (label: string) => within(card).getByText(label).nextElementSibling;
    expect(count('Pending')).toHaveTextContent('2');
    expect(count('In Progress')).toHaveTextContent('1,234');
    expect(count('Completed')).toHaveTextContent('0');
  });

  it("says 'No team members yet' when there are none", async () => {
    answer = async () => [];
    open();
    expect(await screen.findByText('No team members yet')).toBeInTheDocument();
  });

  it('downloads the report as user_details.xlsx and says so', async () => {
    answer = async () => [];
    vi.mocked(downloadFile).mockResolvedValueOnce(undefined);
    open();
    await userEvent
      .setup({ delay: null })
      .click(screen.getByRole('button', { name: 'Download Report' }));
    expect(downloadFile).toHaveBeenCalledWith('/api/reports/export/users', 'user_details.xlsx');
    expect(await screen.findByText('Team report downloaded successfully')).toBeInTheDocument();
  });

  it('says when the report cannot be downloaded', async () => {
    answer = async () => [];
    vi.mocked(downloadFile).mockRejectedValueOnce(new Error('offline'));
    open();
    await userEvent
      .setup({ delay: null })
      .click(screen.getByRole('button', { name: 'Download Report' }));
    expect(
      await screen.findByText('Failed to download user details. Please try again.'),
    ).toBeInTheDocument();
  });
});
