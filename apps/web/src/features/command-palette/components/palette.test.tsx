import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { TASK_SEARCH_MAX } from '@task-manager/shared';
import { buildUser } from '../../../test/factories';
import { renderPage } from '../../../test/render-page';
import { stubApi } from '../../../test/stub-api';
import { Palette } from './palette';

describe('Palette', () => {
  it('searches at most as many characters as the task list takes (no 400 for a long paste)', async () => {
    const { requests } = stubApi((request) =>
      request.url === '/api/tasks'
        ? { status: 200, data: { tasks: [], statusSummary: {}, nextCursor: null } }
        : undefined,
    );
    renderPage(<Palette role="admin" onClose={() => undefined} />, {
      path: '/admin/dashboard',
      signedInAs: buildUser({ role: 'admin' }),
    });
    const input = screen.getByRole('combobox');
    await userEvent.click(input);
    await userEvent.paste('x'.repeat(TASK_SEARCH_MAX + 100));
    await waitFor(() =>
      expect(requests.some((request) => request.url === '/api/tasks')).toBe(true),
    );
    const asked = requests.filter((request) => request.url === '/api/tasks');
    for (const request of asked) {
      expect(String(request.params?.q ?? '').length).toBeLessThanOrEqual(TASK_SEARCH_MAX);
    }
    expect(input).toHaveValue('x'.repeat(TASK_SEARCH_MAX));
  });
});
