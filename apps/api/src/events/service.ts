import type { Kysely } from 'kysely';
import type { Response } from 'express';
import type { Database } from '../db/tables.js';
import type { RequestUser } from '../http/request-user.js';
import type { EventBus } from './bus.js';
import { issueEventTicket } from './tickets.js';

/** Live updates: tickets for opening a stream, and the streams themselves. */
export class LiveEventsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly bus: EventBus,
  ) {}

  issueTicket(user: RequestUser) {
    return issueEventTicket(this.db, user);
  }

  /** Serves `user`'s stream on `res`, resuming after `resumeFrom` when given. */
  openStream(res: Response, user: RequestUser, resumeFrom: number | undefined) {
    return this.bus.open(res, user, resumeFrom);
  }
}
