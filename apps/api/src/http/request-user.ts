import type { Request } from 'express';
import type { Role } from '@task-manager/shared';
import { Unauthorized } from '../errors.js';

/** The signed-in caller, as loaded from the database by `requireAuth`. */
export interface RequestUser {
  id: string;
  role: Role;
  tokenVersion: number;
  /**
   * The data version, read with the session before anything else the request reads (so an
   * answer is at least as new as it: tasks/conditional.ts). Absent where no session check read it.
   */
  dataVersion?: number;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      user?: RequestUser;
    }
  }
}

export function currentUser(req: Request): RequestUser {
  if (!req.user) throw Unauthorized();
  return req.user;
}
