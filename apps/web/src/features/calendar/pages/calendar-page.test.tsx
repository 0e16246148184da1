import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { paths } from '../../../config/paths';
import { buildTask, buildTaskList, buildUser } from '../../../test/factories';
import { renderPage } from '../../../test/render-page';
import { stubApi } from '../../../test/stub-api';
import { CalendarPage } from './calendar-page';

describe('the calendar', () => {
  it("shows the neighbouring months' days of the grid with their tasks", async () => {
    // April 2031 starts on a Tuesday and ends on a Wednesday: its grid runs from Monday 31 March
    // to Sunday 4 May.
    const march = buildTask({ title: 'Close March', dueDate: '2031-03-31T00:00:00.000Z' });
    const may = buildTask({ title: 'Plan May', dueDate: '2031-05-04T00:00:00.000Z' });
    const stub = stubApi(() => ({ status: 200, data: buildTaskList([march, may]) }));
    renderPage(<CalendarPage />, {
      path: `${paths.user.calendar}?month=2031-04`,
      route: paths.user.calendar,
      signedInAs: buildUser(),
    });
    expect(await screen.findByRole('link', { name: 'Close March' })).toBeInTheDocument();
    expect(stub.requests[0]!.params).toMatchObject({
      dueFrom: '2031-03-31T00:00:00.000Z',
      dueBefore: '2031-05-05T00:00:00.000Z',
    });
    const lastCell = screen.getAllByRole('cell').at(-1)!;
    expect(within(lastCell).getByRole('link', { name: 'Plan May' })).toBeInTheDocument();
  });

  it('leads to the calendar subscription on the profile', async () => {
    stubApi(() => ({ status: 200, data: buildTaskList([]) }));
    renderPage(<CalendarPage />, { path: paths.user.calendar, signedInAs: buildUser() });
    expect(
      await screen.findByRole('link', { name: 'Subscribe in your calendar app' }),
    ).toHaveAttribute('href', '/profile#profile-calendar');
  });
});
