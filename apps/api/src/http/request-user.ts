import type { Request } from 'express';
import type { Role } from '@task-manager/shared';
import { Unauthorized } from '../errors.js';

/** The signed-in caller, as loaded from the database by `requireAuth`. */
export interface RequestUser {
  id: string;
  role: Role;
  tokenVersion: number;
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
