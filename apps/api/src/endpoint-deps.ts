import type { RequestHandler } from 'express';
import type { AuthService } from './auth/service.js';
import { endpointsFor } from './http/endpoint.js';
import type { AuthLimits } from './http/rate-limit.js';
import type { HealthService } from './health/service.js';
import type { ImageService } from './images/service.js';
import type { ReportService } from './reports/service.js';
import type { TaskService } from './tasks/service.js';
import type { UserService } from './users/service.js';

/** What every endpoint handler may use: one service per feature, built once by createApp. */
export interface AppServices {
  auth: AuthService;
  users: UserService;
  tasks: TaskService;
  images: ImageService;
  reports: ReportService;
  health: HealthService;
}

/** Middleware that endpoints place before their handler (limits, upload parsing). */
export interface AppMiddleware {
  limits: AuthLimits;
  /** Refuses an upload while unclaimed uploads hold their quota (before the body is read). */
  uploadQuota: RequestHandler;
  /** Reads one file from the multipart field `image`. */
  receiveImage: RequestHandler;
}

/** Declares one of this app's endpoints (see http/endpoint.ts). */
export const defineEndpoint = endpointsFor<AppServices, AppMiddleware>();
