import fs from 'node:fs';
import path from 'node:path';
import cors from 'cors';
import express from 'express';
import helmet from 'helmet';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { apiMessages, NEXT_CURSOR_HEADER } from '@task-manager/shared';
import { ActivityService } from './activity/service.js';
import { AuditService } from './audit/service.js';
import { CalendarService } from './calendar/service.js';
import { CommentService } from './comments/service.js';
import { EventBus } from './events/bus.js';
import { LiveEventsService } from './events/service.js';
import { ticketOrBearer } from './events/stream-auth.js';
import { FileService } from './files/service.js';
import { receiveTaskFile } from './files/upload.js';
import { createAuthEvents } from './auth/events.js';
import { logForbidden, requireAuth, requireRole } from './auth/middleware.js';
import { createPasswordHasher } from './auth/passwords.js';
import { AuthService } from './auth/service.js';
import { createTokenService } from './auth/tokens.js';
import type { AppConfig } from './config.js';
import type { Database } from './db/tables.js';
import { NotFound } from './errors.js';
import type { AppMiddleware, AppServices } from './endpoint-deps.js';
import { apiEndpoints } from './endpoints.js';
import { HealthService } from './health/service.js';
import { endpointRouter } from './http/endpoint.js';
import { compressAnswers } from './http/compression.js';
import { requestLog } from './http/request-log.js';
import { errorHandler } from './http/error-handler.js';
import { createAuthLimits, type RateLimitStoreFactory } from './http/rate-limit.js';
import { cspNonce, serveWebApp, styleNonceSource } from './http/web-app.js';
import { ImageService } from './images/service.js';
import { InviteService } from './invites/service.js';
import { MailSender } from './mail/sender.js';
import { LabelService } from './labels/service.js';
import { configureNotificationMail } from './notifications/mail-config.js';
import { NotificationService } from './notifications/service.js';
import { receiveImage } from './images/upload.js';
import { openApiRoutes } from './openapi/routes.js';
import { ReportService } from './reports/service.js';
import { SettingsService } from './settings/service.js';
import { TaskService } from './tasks/service.js';
import { UserService } from './users/service.js';

export interface AppDeps {
  db: Kysely<Database>;
  config: AppConfig;
  logger: Logger;
  /** True once the server has begun to shut down: readiness then answers 503. */
  isShuttingDown?: () => boolean;
  /** Where the rate limits count: shared through Redis, or (none given) in this process. */
  rateLimitStores?: RateLimitStoreFactory;
  /** This process's live-update fan-out (server.ts wires its wake-ups and shutdown). */
  liveEvents?: EventBus;
}

/** Builds the Express app: no ports, no process.env (see server.ts for those). */
export function createApp({
  db,
  config,
  logger,
  isShuttingDown = () => false,
  rateLimitStores,
  liveEvents = new EventBus(db, logger, config.liveEvents),
}: AppDeps): express.Express {
  const tokens = createTokenService(config.jwtSecret, config.jwtExpiresIn);
  const hasher = createPasswordHasher(config.bcryptCost, config.passwordWork);
  const authEvents = createAuthEvents(logger);
  const users = new UserService(db, hasher, authEvents);
  const settings = new SettingsService(db, config.adminInviteToken, config.signupMode ?? 'open');
  const invites = new InviteService(db);
  // E-mail goes out through the outbox, sent by this process (several processes share the work).
  const mailSender = config.mail
    ? new MailSender(
        db,
        {
          smtpUrl: config.mail.smtpUrl,
          from: config.mail.from,
          pollMs: config.mail.pollMs,
          baseDelayMs: config.mail.retryDelayMs,
        },
        logger,
      )
    : undefined;
  mailSender?.start();
  // Notifications are written inside other features' transactions: their mail settings are
  // per process (see notifications/mail-config.ts).
  configureNotificationMail(
    config.mail ? { publicUrl: config.mail.publicUrl, secret: config.jwtSecret } : undefined,
  );
  const auth = new AuthService(
    db,
    users,
    hasher,
    tokens,
    settings,
    invites,
    config.bcryptCost,
    authEvents,
    {
      signupMode: config.signupMode ?? 'open',
      ...(config.mail &&
        mailSender && {
          mail: { publicUrl: config.mail.publicUrl, sender: mailSender },
        }),
    },
  );
  const images = new ImageService(db, config.unclaimedImageQuotaBytes);
  const tasks = new TaskService(db);
  const files = new FileService(db, tasks, config.maxFileBytes);
  const services: AppServices = {
    auth,
    users,
    tasks,
    labels: new LabelService(db),
    images,
    reports: new ReportService(tasks, users),
    health: new HealthService(db, isShuttingDown),
    invites,
    settings,
    audit: new AuditService(db),
    activity: new ActivityService(db),
    comments: new CommentService(db, tasks),
    files,
    liveEvents: new LiveEventsService(db, liveEvents),
    notifications: new NotificationService(db, {
      emailEnabled: config.mail !== undefined,
      secret: config.jwtSecret,
    }),
    calendar: new CalendarService(db, config.publicUrl ?? config.mail?.publicUrl),
  };
  const middleware: AppMiddleware = {
    limits: createAuthLimits({ perMinute: config.authRateLimit, stores: rateLimitStores, logger }),
    uploadQuota: async (_req, _res, next) => {
      await images.assertRoomForUpload();
      next();
    },
    receiveImage,
    receiveTaskFile: receiveTaskFile(files),
    eventStreamAuth: ticketOrBearer(db, requireAuth(db, tokens, authEvents), authEvents),
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.use(requestLog(logger));
  app.use(cspNonce);
  // A change is committed before its answer is sent: once a request that may have written is
  // answered, the live-update streams read the log (other processes learn it by NOTIFY, or
  // from the cluster's primary).
  app.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'OPTIONS') {
      res.on('finish', () => liveEvents.writeFinished());
    }
    next();
  });
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          'default-src': ["'self'"],
          // Profile photos are only ever this server's images (/api/images/...), so no page makes a
          // viewer's browser call an address a member chose; blob: previews a photo before upload.
          'img-src': ["'self'", 'data:', 'blob:'],
          // Stylesheets of this origin, and inline styles only with the page's nonce (the toasts'):
          // not helmet's default of any https: host and 'unsafe-inline'.
          'style-src': ["'self'", styleNonceSource],
          // Not helmet's default of any https: host: the app ships no font of its own.
          'font-src': ["'self'"],
          'object-src': ["'none'"],
          'base-uri': ["'none'"],
          'frame-ancestors': ["'none'"],
          // A self-hosted server is often reached over plain HTTP on a LAN: do not force https.
          'upgrade-insecure-requests': null,
        },
      },
      // HSTS only when the request came over HTTPS (directly or via a trusted proxy).
      strictTransportSecurity: false,
    }),
  );
  app.use((req, res, next) => {
    if (req.secure)
      res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    next();
  });
  app.use(
    '/api',
    cors({
      origin: config.corsOrigins.length > 0 ? config.corsOrigins : false,
      exposedHeaders: ['Content-Disposition', 'Retry-After', NEXT_CURSOR_HEADER],
      maxAge: 600,
    }),
  );
  // Every endpoint, declared next to its feature: each reads its body (if any) only after its
  // access check and its limits have let the request through.
  app.use(
    endpointRouter(apiEndpoints, {
      services,
      middleware,
      requireAuth: requireAuth(db, tokens, authEvents),
      requireRole,
    }),
  );
  // What the endpoints did not answer (the API's documents, index.html), compressed when large
  // enough to gain. The endpoints compress their own answers (sendJson, endpointRouter).
  app.use(compressAnswers());
  app.use('/api', openApiRoutes());
  app.use('/api', () => {
    throw NotFound(apiMessages.notFound);
  });

  if (config.webDistDir && fs.existsSync(path.join(config.webDistDir, 'index.html'))) {
    serveWebApp(app, config.webDistDir);
  }

  app.use(logForbidden(authEvents));
  app.use(errorHandler(logger));
  return app;
}
