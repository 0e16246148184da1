import { describe, expect, it } from 'vitest';
import { dueWindow } from '../../src/tasks/search-filters.js';

describe('dueWindow', () => {
  // 20:00 on Saturday 28 November in Los Angeles: already 04:00 on the 29th in UTC.
  const laEvening = new Date('2026-11-29T04:00:00.000Z');

  it("takes today's date from the caller's time zone and the due dates' days in UTC", () => {
    expect(dueWindow('today', 'America/Los_Angeles', laEvening)).toEqual({
      from: '2026-11-28T00:00:00.000Z',
      before: '2026-11-29T00:00:00.000Z',
    });
    expect(dueWindow('today', 'UTC', laEvening)).toEqual({
      from: '2026-11-29T00:00:00.000Z',
      before: '2026-11-30T00:00:00.000Z',
    });
  });

  it('rolls the week over the end of the month and the year', () => {
    const newYearsEve = new Date('2026-12-31T10:00:00.000Z');
    expect(dueWindow('week', 'Europe/Berlin', newYearsEve)).toEqual({
      from: '2026-12-31T00:00:00.000Z',
      before: '2027-01-07T00:00:00.000Z',
    });
    expect(dueWindow('later', 'Europe/Berlin', newYearsEve)).toEqual({
      from: '2027-01-07T00:00:00.000Z',
    });
  });

  it('keeps overdue as before now and open, in every time zone', () => {
    expect(dueWindow('overdue', 'Pacific/Kiritimati', laEvening)).toEqual({
      before: laEvening.toISOString(),
      openOnly: true,
    });
  });
});
