import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  dueDateDay,
  formatCalendarDay,
  formatDate,
  formatMonth,
  formatDueDate,
  formatNumber,
  formatToday,
  greetingFor,
  toHref,
  weekdayNames,
} from './format';
import { loadLanguage, setLanguage } from './i18n';

describe('greetingFor', () => {
  it.each([
    [0, 'Good Morning'],
    [11, 'Good Morning'],
    [12, 'Good Afternoon'],
    [16, 'Good Afternoon'],
    [17, 'Good Evening'],
    [19, 'Good Evening'],
    [20, 'Good Night'],
    [23, 'Good Night'],
  ])('greets hour %i with %s', (hour, greeting) => {
    expect(greetingFor(hour)).toBe(greeting);
  });

  it.each([
    ['11:59', 'Good Morning'],
    ['12:00', 'Good Afternoon'],
    ['16:59', 'Good Afternoon'],
    ['17:00', 'Good Evening'],
    ['19:59', 'Good Evening'],
    ['20:00', 'Good Night'],
  ])('changes at the threshold: %s is %s', (time, greeting) => {
    const now = new Date(`2025-01-01T${time}:00`);
    expect(greetingFor(now.getHours())).toBe(greeting);
  });
});

describe('formatDate', () => {
  it.each([
    ['2025-01-01T10:00:00', '1st Jan 2025'],
    ['2025-03-02T10:00:00', '2nd Mar 2025'],
    ['2025-11-23T10:00:00', '23rd Nov 2025'],
    ['2025-12-11T10:00:00', '11th Dec 2025'],
  ])('writes %s as %s', (value, text) => {
    expect(formatDate(value)).toBe(text);
  });

  it.each([null, undefined, '', 'not a date'])('writes N/A for %j', (value) => {
    expect(formatDate(value)).toBe('N/A');
  });
});

describe('due dates', () => {
  it('reads a stored due date as the calendar day it was set to, in any time zone', () => {
    expect(formatDueDate('2025-01-01T00:00:00.000Z')).toBe('1st Jan 2025');
    expect(formatDueDate('2025-03-22T00:00:00.000Z')).toBe('22nd Mar 2025');
    expect(dueDateDay('2025-03-22T00:00:00.000Z')).toBe('2025-03-22');
  });

  it('says N/A, or leaves the input empty, when there is no date', () => {
    expect(formatDueDate(null)).toBe('N/A');
    expect(formatDueDate('not a date')).toBe('N/A');
    expect(dueDateDay(undefined)).toBe('');
  });
});

describe('formatToday', () => {
  it('names the weekday and the date', () => {
    expect(formatToday(new Date(2025, 0, 1, 9))).toBe('Wednesday 1st Jan 2025');
  });
});

describe('formatNumber', () => {
  it.each([
    [0, '0'],
    [999, '999'],
    [1000, '1,000'],
    [1234567, '1,234,567'],
    [1234567.891, '1,234,567.891'],
    [-1234.5, '-1,234.5'],
    [-999, '-999'],
    ['9876543', '9,876,543'],
  ])('writes %j as %s', (value, text) => {
    expect(formatNumber(value)).toBe(text);
  });

  it.each([null, undefined, '', 'abc', Number.NaN, Infinity, true, {}])(
    'writes an empty string for %j',
    (value) => {
      expect(formatNumber(value)).toBe('');
    },
  );
});

describe('toHref', () => {
  it('keeps a link that has a scheme', () => {
    expect(toHref('https://example.com/a')).toBe('https://example.com/a');
    expect(toHref('http://example.com')).toBe('http://example.com');
    expect(toHref('HTTPS://EXAMPLE.COM')).toBe('HTTPS://EXAMPLE.COM');
  });

  it('prefixes https:// otherwise', () => {
    expect(toHref('example.com/docs')).toBe('https://example.com/docs');
    expect(toHref('www.example.com')).toBe('https://www.example.com');
  });
});

describe('the calendar', () => {
  // Days of the calendar are UTC midnights: they must not shift a day west of Greenwich.
  const day = new Date(Date.UTC(2026, 10, 25));

  it('names months, weekdays (Monday first) and days in English', () => {
    expect(formatMonth(day, 'en')).toBe('November 2026');
    expect(weekdayNames('en')).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);
    expect(formatCalendarDay(day, 'en')).toBe('Wednesday 25 November');
  });

  it('and in German', () => {
    expect(formatMonth(new Date(Date.UTC(2026, 2, 1)), 'de')).toBe('März 2026');
    expect(weekdayNames('de')).toEqual(['Mo', 'Di', 'Mi', 'Do', 'Fr', 'Sa', 'So']);
    expect(formatCalendarDay(day, 'de')).toBe('Mittwoch, 25. November');
  });
});

describe('in German', () => {
  // German messages load on demand, as in the app once German is chosen.
  beforeAll(() => loadLanguage('de'));

  it('writes dates the German way', () => {
    expect(formatDate('2031-06-15T10:00:00', 'de')).toBe('15. Juni 2031');
    expect(formatDueDate('2031-06-15T00:00:00.000Z', 'de')).toBe('15. Juni 2031');
    expect(formatToday(new Date(2031, 5, 15, 9), 'de')).toBe('Sonntag, 15. Juni 2031');
    expect(formatDate(null, 'de')).toBe('k. A.');
    expect(formatDueDate('not a date', 'de')).toBe('k. A.');
  });

  it('writes numbers with points between thousands and a decimal comma', () => {
    expect(formatNumber(1234, 'de')).toBe('1.234');
    expect(formatNumber(1234567.891, 'de')).toBe('1.234.567,891');
    expect(formatNumber(-1234.5, 'de')).toBe('-1.234,5');
    expect(formatNumber('9876543', 'de')).toBe('9.876.543');
    expect(formatNumber(null, 'de')).toBe('');
    expect(formatNumber('abc', 'de')).toBe('');
  });

  it.each([
    [11, 'Guten Morgen'],
    [12, 'Guten Tag'],
    [17, 'Guten Abend'],
    [20, 'Gute Nacht'],
  ])('greets hour %i with %s', (hour, greeting) => {
    expect(greetingFor(hour, 'de')).toBe(greeting);
  });

  describe('as the app language', () => {
    afterEach(() => setLanguage('en'));

    it('follows the language chosen, and English again after switching back', async () => {
      await setLanguage('de');
      expect(formatDate('2025-01-01T10:00:00')).toBe('1. Januar 2025');
      expect(formatNumber(1000)).toBe('1.000');
      expect(greetingFor(9)).toBe('Guten Morgen');
      await setLanguage('en');
      expect(formatDate('2025-01-01T10:00:00')).toBe('1st Jan 2025');
      expect(formatNumber(1000)).toBe('1,000');
      expect(greetingFor(9)).toBe('Good Morning');
    });
  });
});
