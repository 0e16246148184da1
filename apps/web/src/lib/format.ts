import dayjs from 'dayjs';
import advancedFormat from 'dayjs/plugin/advancedFormat';
import utc from 'dayjs/plugin/utc';
import { currentLanguage, i18next, type Language } from './i18n';

dayjs.extend(advancedFormat);
dayjs.extend(utc);

/**
 * Every function here writes for the app's current language unless told another: English keeps
 * the spec's formats ('Do MMM YYYY', commas between thousands), other languages use their own
 * (German: '15. Juni 2031', '1.234,5').
 */

/** The text for a missing or unreadable date: 'N/A' in English. */
function notAvailable(language: Language): string {
  return i18next.t('format.notAvailable', { lng: language });
}

/** A day in the language's own long form, e.g. '15. Juni 2031'. */
function localDate(date: Date, language: Language, options: Intl.DateTimeFormatOptions = {}) {
  return new Intl.DateTimeFormat(language, {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    ...options,
  }).format(date);
}

/** Dates as 'Do MMM YYYY' (1st Jan 2025); 'N/A' when missing or not a date. */
export function formatDate(
  value: string | null | undefined,
  language: Language = currentLanguage(),
): string {
  if (!value) return notAvailable(language);
  const date = dayjs(value);
  if (!date.isValid()) return notAvailable(language);
  return language === 'en' ? date.format('Do MMM YYYY') : localDate(date.toDate(), language);
}

/**
 * A due date is a calendar day, stored as midnight UTC of that day: it is shown in UTC so that it
 * reads as the same day in every time zone.
 */
export function formatDueDate(
  value: string | null | undefined,
  language: Language = currentLanguage(),
): string {
  if (!value) return notAvailable(language);
  const date = dayjs.utc(value);
  if (!date.isValid()) return notAvailable(language);
  return language === 'en'
    ? date.format('Do MMM YYYY')
    : localDate(date.toDate(), language, { timeZone: 'UTC' });
}

/** The calendar day (YYYY-MM-DD) of a stored due date, for a date input. */
export function dueDateDay(value: string | null | undefined): string {
  if (!value) return '';
  const date = dayjs.utc(value);
  return date.isValid() ? date.format('YYYY-MM-DD') : '';
}

/** Today's date for the dashboard heading, e.g. 'Monday 23rd Nov 2026' ('Montag, 23. November 2026'). */
export function formatToday(
  now: Date = new Date(),
  language: Language = currentLanguage(),
): string {
  return language === 'en'
    ? dayjs(now).format('dddd Do MMM YYYY')
    : localDate(now, language, { weekday: 'long' });
}

/** A calendar month, e.g. 'November 2026' ('November 2026' in German too), read in UTC. */
export function formatMonth(month: Date, language: Language = currentLanguage()): string {
  return language === 'en'
    ? dayjs.utc(month).format('MMMM YYYY')
    : new Intl.DateTimeFormat(language, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
        month,
      );
}

/** The short weekday names, Monday first: 'Mon'…'Sun' ('Mo'…'So'). */
export function weekdayNames(language: Language = currentLanguage()): string[] {
  // 2024-01-01 was a Monday.
  const monday = Date.UTC(2024, 0, 1);
  return Array.from({ length: 7 }, (_, index) => {
    const day = new Date(monday + index * 86_400_000);
    return language === 'en'
      ? dayjs.utc(day).format('ddd')
      : new Intl.DateTimeFormat(language, { weekday: 'short', timeZone: 'UTC' }).format(day);
  });
}

/** A calendar day named in full, e.g. 'Wednesday 25 November' ('Mittwoch, 25. November'), in UTC. */
export function formatCalendarDay(day: Date, language: Language = currentLanguage()): string {
  return language === 'en'
    ? dayjs.utc(day).format('dddd D MMMM')
    : new Intl.DateTimeFormat(language, {
        weekday: 'long',
        day: 'numeric',
        month: 'long',
        timeZone: 'UTC',
      }).format(day);
}

/**
 * Thousands separated by commas, the decimal part kept, '' for null or anything not numeric
 * (spec section 5); in German '1.234.567,891'.
 */
export function formatNumber(value: unknown, language: Language = currentLanguage()): string {
  if (value === null || value === undefined || value === '' || typeof value === 'boolean')
    return '';
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(number)) return '';
  if (language !== 'en') {
    // The shortest form that reads back as the same number: every decimal kept, none invented.
    return new Intl.NumberFormat(language, { maximumFractionDigits: 20 }).format(number);
  }
  const [whole, fraction] = String(number).split('.');
  const grouped = groupThousands(whole!);
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

/** "-1234567" → "-1,234,567"; anything but plain digits (1e+21) stays as it is. */
function groupThousands(whole: string): string {
  const sign = whole.startsWith('-') ? '-' : '';
  const digits = whole.slice(sign.length);
  if (!/^\d+$/.test(digits)) return whole;
  const groups: string[] = [];
  for (let end = digits.length; end > 0; end -= 3) {
    groups.unshift(digits.slice(Math.max(0, end - 3), end));
  }
  return sign + groups.join(',');
}

/** Greeting by hour: before 12 Morning, before 17 Afternoon, before 20 Evening, else Night. */
export function greetingFor(hour: number, language: Language = currentLanguage()): string {
  const key = hour < 12 ? 'morning' : hour < 17 ? 'afternoon' : hour < 20 ? 'evening' : 'night';
  return i18next.t(`format.${key}`, { lng: language });
}

/** An attachment link opens as typed when it has a scheme, otherwise as https://. */
export function toHref(link: string): string {
  return /^https?:\/\//i.test(link) ? link : `https://${link}`;
}
