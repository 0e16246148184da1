import dayjs from 'dayjs';
import advancedFormat from 'dayjs/plugin/advancedFormat';
import utc from 'dayjs/plugin/utc';

dayjs.extend(advancedFormat);
dayjs.extend(utc);

/** Dates as 'Do MMM YYYY' (1st Jan 2025); 'N/A' when missing or not a date. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return 'N/A';
  const date = dayjs(value);
  return date.isValid() ? date.format('Do MMM YYYY') : 'N/A';
}

/**
 * A due date is a calendar day, stored as midnight UTC of that day: it is shown in UTC so that it
 * reads as the same day in every time zone.
 */
export function formatDueDate(value: string | null | undefined): string {
  if (!value) return 'N/A';
  const date = dayjs.utc(value);
  return date.isValid() ? date.format('Do MMM YYYY') : 'N/A';
}

/** The calendar day (YYYY-MM-DD) of a stored due date, for a date input. */
export function dueDateDay(value: string | null | undefined): string {
  if (!value) return '';
  const date = dayjs.utc(value);
  return date.isValid() ? date.format('YYYY-MM-DD') : '';
}

/** Today's date for the dashboard heading, e.g. 'Monday 23rd Nov 2026'. */
export function formatToday(now: Date = new Date()): string {
  return dayjs(now).format('dddd Do MMM YYYY');
}

/**
 * Thousands separated by commas, the decimal part kept, '' for null or anything not numeric
 * (spec section 5).
 */
export function formatNumber(value: unknown): string {
  if (value === null || value === undefined || value === '' || typeof value === 'boolean')
    return '';
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(number)) return '';
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
export function greetingFor(hour: number): string {
  if (hour < 12) return 'Good Morning';
  if (hour < 17) return 'Good Afternoon';
  if (hour < 20) return 'Good Evening';
  return 'Good Night';
}

/** An attachment link opens as typed when it has a scheme, otherwise as https://. */
export function toHref(link: string): string {
  return /^https?:\/\//i.test(link) ? link : `https://${link}`;
}
