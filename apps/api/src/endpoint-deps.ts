import type { RequestHandler } from 'express';
import type { ActivityService } from './activity/service.js';
import type { AuditService } from './audit/service.js';
import type { AuthService } from './auth/service.js';
import type { CalendarService } from './calendar/service.js';
import type { CommentService } from './comments/service.js';
import type { LiveEventsService } from './events/service.js';
import type { FileService } from './files/service.js';
import { endpointsFor } from './http/endpoint.js';
import type { AuthLimits } from './http/rate-limit.js';
import type { HealthService } from './health/service.js';
import type { ImageService } from './images/service.js';
import type { InviteService } from './invites/service.js';
import type { LabelService } from './labels/service.js';
import type { NotificationService } from './notifications/service.js';
import type { ReportService } from './reports/service.js';
import type { SettingsService } from './settings/service.js';
import type { TaskService } from './tasks/service.js';
import type { UserService } from './users/service.js';

/** What every endpoint handler may use: one service per feature, built once by createApp. */
export interface AppServices {
  auth: AuthService;
  users: UserService;
  tasks: TaskService;
  labels: LabelService;
  images: ImageService;
  reports: ReportService;
  health: HealthService;
  invites: InviteService;
  settings: SettingsService;
  audit: AuditService;
  activity: ActivityService;
  comments: CommentService;
  files: FileService;
  liveEvents: LiveEventsService;
  notifications: NotificationService;
  calendar: CalendarService;
}

/** Middleware that endpoints place before their handler (limits, upload parsing). */
export interface AppMiddleware {
  limits: AuthLimits;
  /** Refuses an upload while unclaimed uploads hold their quota (before the body is read). */
  uploadQuota: RequestHandler;
  /** Reads one file from the multipart field `image`. */
  receiveImage: RequestHandler;
  /** Streams the multipart field `file` of a task upload into the database. */
  receiveTaskFile: RequestHandler;
  /** Who opens an event stream: a single-use ticket or the bearer token. */
  eventStreamAuth: RequestHandler;
}

/** Declares one of this app's endpoints (see http/endpoint.ts). */
export const defineEndpoint = endpointsFor<AppServices, AppMiddleware>();
