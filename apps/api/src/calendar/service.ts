import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import ical, { ICalEventStatus, ICalEventTransparency } from 'ical-generator';
import type { CalendarFeed, CalendarScope } from '@task-manager/shared';
import type { Database } from '../db/tables.js';
import { Forbidden } from '../errors.js';
import { textsFor } from '../i18n/texts.js';
import type { RequestUser } from '../http/request-user.js';
import {
  findFeedBySecret,
  findFeedOf,
  insertFeedIfMissing,
  tasksForFeed,
  updateFeed,
} from './repository.js';
import { canUseCalendarScope } from './policy.js';

/**
 * A random UUID (122 random bits): the feed's address is its only protection, as calendar apps
 * send no header. A UUID like every other id in a path (the router answers 404 to anything else).
 */
const newSecret = () => randomUUID();

const DESCRIPTION_CHARS = 280;

export const membersOnlyOwnTasks = 'Only admins can subscribe to every task; members get their own';

export class CalendarService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly publicUrl: string | undefined,
  ) {}

  /** The caller's feed (made on the first call), its address based at PUBLIC_URL or `origin`. */
  async feed(user: RequestUser, origin: string): Promise<CalendarFeed> {
    let feed = await findFeedOf(this.db, user.id);
    if (!feed) {
      await insertFeedIfMissing(this.db, {
        user_id: user.id,
        secret: newSecret(),
        scope: 'mine',
        created_at: new Date().toISOString(),
      });
      feed = (await findFeedOf(this.db, user.id))!;
    }
    return {
      url: `${this.publicUrl ?? origin}/api/calendar/${feed.secret}.ics`,
      scope: feed.scope as CalendarScope,
    };
  }

  /** A new secret: the old address answers 404 from now on. */
  async rotate(user: RequestUser, origin: string): Promise<CalendarFeed> {
    await this.feed(user, origin);
    await updateFeed(this.db, user.id, { secret: newSecret() });
    return this.feed(user, origin);
  }

  async setScope(user: RequestUser, scope: CalendarScope, origin: string): Promise<CalendarFeed> {
    if (!canUseCalendarScope(user, scope)) throw Forbidden(membersOnlyOwnTasks);
    await this.feed(user, origin);
    await updateFeed(this.db, user.id, { scope });
    return this.feed(user, origin);
  }

  /**
   * The iCalendar text of a secret, or undefined (unknown secret, deactivated person). Admins
   * with scope `all` see every task; everyone else the tasks assigned to them (a member whose
   * feed said `all` while an admin gets their own only).
   */
  async calendarOf(secret: string, origin: string): Promise<string | undefined> {
    const feed = await findFeedBySecret(this.db, secret);
    if (!feed) return undefined;
    const everything = feed.role === 'admin' && feed.scope === 'all';
    const tasks = await tasksForFeed(this.db, everything ? undefined : feed.user_id);
    const base = this.publicUrl ?? origin;
    const host = new URL(base).host;
    const texts = textsFor(feed.language);
    const calendar = ical({
      name: texts.calendar.name(everything),
      prodId: {
        company: 'task-manager',
        product: 'tasks',
        language: texts.language.toUpperCase(),
      },
      // Calendar apps poll at their own pace; this asks for about once an hour.
      ttl: 3600,
    });
    const admin = feed.role === 'admin';
    for (const task of tasks) {
      const day = task.due_date.slice(0, 10);
      const link = admin
        ? `${base}/admin/tasks/${task.id}`
        : `${base}/user/task-details/${task.id}`;
      const completed = task.status === 'Completed';
      const summary = task.description.replace(/\s+/g, ' ').trim();
      calendar.createEvent({
        id: `${task.id}@${host}`,
        // Noon UTC of the due day (stored as UTC, like the app's own overdue days): the same
        // calendar day whatever the timezone ical-generator formats the date in.
        start: new Date(`${day}T12:00:00.000Z`),
        allDay: true,
        stamp: new Date(task.updated_at),
        lastModified: new Date(task.updated_at),
        summary: completed ? `✓ ${task.title}` : task.title,
        description:
          `${texts.calendar.summary(task.status, task.priority)}\n` +
          (summary.length > DESCRIPTION_CHARS
            ? `${summary.slice(0, DESCRIPTION_CHARS)}…`
            : summary) +
          `\n${link}`,
        url: link,
        // VEVENT has no COMPLETED status (RFC 5545 3.8.1.11): a done task stays CONFIRMED, is
        // marked by its summary and category, and does not block time.
        status: ICalEventStatus.CONFIRMED,
        transparency: ICalEventTransparency.TRANSPARENT,
        categories: [{ name: task.status }],
      });
    }
    return calendar.toString();
  }
}
