import cluster from 'node:cluster';
import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { apiMessages } from '@task-manager/shared';
import { createApp } from './app.js';
import { isLiveEventsWake, isShutdownMessage, LIVE_EVENTS_WAKE, runPrimary } from './cluster.js';
import { ConfigError, parseEnv } from './config.js';
import { tightenFiles } from './data-files.js';
import { migrateToLatest, openConfiguredDatabase } from './db/database.js';
import { forgetOutdatedDocuments } from './tasks/documents.js';
import { errorBody } from './errors.js';
import { EventBus } from './events/bus.js';
import { exitAfterLogs } from './exit-after-logs.js';
import { listenForEvents } from './events/pg-listener.js';
import { createRateLimitRedis, redisStores } from './http/rate-limit.js';
import { startImageSweep } from './images/sweep.js';
import { writePidFile } from './pid-file.js';
import { startScheduler } from './scheduler/scheduler.js';
import { startWalCheckpointer } from './db/wal-checkpointer.js';
import { jwtSecretFile, resolveAdminInviteToken, resolveJwtSecret } from './settings/service.js';

/** How long requests in flight may take to finish once a stop signal came. */
const SHUTDOWN_GRACE_MS = 10_000;
/** How long closing the database may take after that. */
const CLOSE_DATABASE_MS = 5_000;

async function main() {
  const env = parseEnv();
  const logger = pino({ level: env.LOG_LEVEL, redact: ['req.headers.authorization'] });
  // A cluster worker (WEB_CONCURRENCY > 1): its primary has migrated the database, written the
  // pid file, resolved the invite token and JWT secret, and prints the start lines.
  const isWorker = cluster.isWorker;
  // Stop signals reach a worker through its primary only: Ctrl-C in a terminal and systemd
  // signal the whole process group, and a worker that also counted those would take the
  // relayed one as a second signal (close connections now). Until it serves, a worker has
  // nothing to finish and simply exits.
  let stopWorker: (signal: string) => void = () => process.exit(0);
  if (isWorker) {
    process.on('message', (message) => {
      if (isShutdownMessage(message)) stopWorker(message.shutdown);
    });
    process.on('SIGTERM', () => undefined);
    process.on('SIGINT', () => undefined);
  }
  const handle = openConfiguredDatabase(env);
  // Older versions let SQLite create the database readable by every local account.
  const tightened = [
    ...(handle.tightenedFiles ?? []),
    ...tightenFiles([jwtSecretFile(env.DATA_DIR)]),
  ];
  if (tightened.length > 0) {
    logger.warn(
      { files: tightened },
      'data files were readable by other users: made owner-only (0600)',
    );
  }
  if (!isWorker) {
    const applied = await migrateToLatest(handle);
    if (applied.length > 0) logger.info({ migrations: applied }, 'database migrated');
    const outdated = await forgetOutdatedDocuments(handle.db);
    if (outdated > 0)
      logger.info({ documents: outdated }, 'stored task answers of an earlier version dropped');
    // `pnpm restore` refuses to swap the SQLite file while this pid is alive.
    if (handle.engine === 'sqlite') writePidFile(env.DATA_DIR);
  }
  const invite = await resolveAdminInviteToken(handle.db, env.ADMIN_INVITE_TOKEN);
  const jwtSecret = resolveJwtSecret(env.JWT_SECRET, env.DATA_DIR);

  if (!isWorker && env.WEB_CONCURRENCY > 1) {
    // Once resolved here, the workers only read the token and the secret: they never race to
    // migrate or to generate them. The primary serves nothing, so it keeps no connection.
    await handle.close();
    logger.info({ engine: handle.engine, database: handle.location }, 'database ready');
    if (env.REDIS_URL) logger.info('rate limits are counted in Redis (REDIS_URL)');
    else logger.warn('rate limits are counted per worker; set REDIS_URL to share them');
    if (invite.generated) {
      logger.info(`Admin invite token (set ADMIN_INVITE_TOKEN to choose one): ${invite.token}`);
    }
    runPrimary({ workers: env.WEB_CONCURRENCY, logger });
    return;
  }
  const webDistDir = fileURLToPath(new URL('../../web/dist', import.meta.url));

  // Several API processes share their rate-limit counts through Redis, when there is one.
  const redis = env.REDIS_URL ? await createRateLimitRedis(env.REDIS_URL, logger) : undefined;

  // Live updates: this process's streams learn of other processes' events by PostgreSQL's
  // LISTEN/NOTIFY, or (SQLite cluster workers) from the primary relaying every worker's writes.
  const liveEvents = new EventBus(handle.db, logger);
  const stopListening = env.DATABASE_URL
    ? listenForEvents(env.DATABASE_URL, () => liveEvents.wake(), logger)
    : undefined;
  if (isWorker && handle.engine === 'sqlite') {
    liveEvents.onLocalWrite = () => process.send?.(LIVE_EVENTS_WAKE);
    process.on('message', (message) => {
      if (isLiveEventsWake(message)) liveEvents.wake();
    });
  }

  let stopping = false;
  const app = createApp({
    liveEvents,
    db: handle.db,
    logger,
    isShuttingDown: () => stopping,
    ...(redis && { rateLimitStores: redisStores(redis, logger) }),
    config: {
      jwtSecret,
      jwtExpiresIn: env.JWT_EXPIRES_IN,
      adminInviteToken: invite.token,
      corsOrigins: env.CORS_ORIGIN,
      authRateLimit: env.AUTH_RATE_LIMIT,
      bcryptCost: env.BCRYPT_COST,
      trustProxy: env.TRUST_PROXY,
      webDistDir,
      signupMode: env.SIGNUP_MODE,
      maxFileBytes: env.MAX_FILE_MB * 1024 * 1024,
      ...(env.PUBLIC_URL && { publicUrl: env.PUBLIC_URL }),
      ...(env.SMTP_URL &&
        env.PUBLIC_URL && {
          mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, publicUrl: env.PUBLIC_URL },
        }),
    },
  });

  // Uploads no user claimed are deleted after their grace period, by every serving process.
  const stopImageSweep = startImageSweep(handle.db, logger);
  // Due reminders and the daily digest: a timer in every serving process (each worker of a
  // cluster), but a lease in the database lets exactly one process run each job.
  const stopScheduler = startScheduler(handle.db, logger);
  // SQLite: the log copied back into the database file by a thread of its own, not by whichever
  // request commits (db/wal-checkpointer.ts).
  const checkpointer =
    handle.engine === 'sqlite' && handle.location !== ':memory:'
      ? await startWalCheckpointer(handle.db, handle.location, {
          onError: (message) => logger.warn({ error: message }, 'WAL checkpoint failed'),
        })
      : undefined;

  // Express 5 hands a listen error (port taken) to this callback instead of throwing it.
  const server = app.listen(env.PORT, (error?: Error) => {
    if (error) {
      console.error(`Task Manager failed to start: ${error.message}`);
      process.exit(1);
    }
    if (isWorker) return;
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : env.PORT;
    logger.info({ engine: handle.engine, database: handle.location }, 'database ready');
    if (redis) logger.info('rate limits are counted in Redis (REDIS_URL)');
    if (invite.generated) {
      logger.info(`Admin invite token (set ADMIN_INVITE_TOKEN to choose one): ${invite.token}`);
    }
    logger.info(`Task Manager listening on http://localhost:${port}`);
  });

  // Longer than the idle timeout of the load balancers usually put in front (60 s), so a proxy
  // never reuses a connection the server has just closed, and busy clients are not made to
  // reconnect every 5 s (Node's default), which under load queued new connections for seconds.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  // Requests Node refuses before the app sees them (headers over 16 KB, malformed HTTP) still
  // get a JSON body with a message, like every other error.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') return socket.destroy();
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const body = JSON.stringify(
      tooLarge
        ? errorBody(431, apiMessages.headersTooLarge)
        : errorBody(400, apiMessages.malformedRequest),
    );
    socket.end(
      `HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  });

  // Answers still to be sent. During shutdown each closes its connection after it is sent, or a
  // keep-alive client would hold the server open for another keep-alive timeout.
  const open = new Set<ServerResponse>();
  // Before the app's own listener, so the header is set before anything is sent.
  server.prependListener('request', (_req, res: ServerResponse) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    if (stopping) res.setHeader('Connection', 'close');
  });

  const shutdown = (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: closing open connections now');
      server.closeAllConnections();
      return;
    }
    stopping = true;
    // Event streams never finish by themselves: end them now, so their clients reconnect to
    // another process and they do not hold up the shutdown.
    liveEvents.closeAll();
    void stopListening?.();
    stopImageSweep();
    stopScheduler();
    logger.info(
      { signal, inFlight: open.size },
      'shutting down: refusing new connections, finishing requests in flight',
    );
    for (const res of open) if (!res.headersSent) res.setHeader('Connection', 'close');
    setTimeout(() => {
      logger.warn({ open: open.size }, 'requests still open after the grace period; closing them');
      server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS).unref();
    // Last resort: a database that never lets go must not keep a stopped server alive.
    setTimeout(() => {
      logger.error('shutdown did not finish in time; exiting');
      exitAfterLogs(logger, 1);
    }, SHUTDOWN_GRACE_MS + CLOSE_DATABASE_MS).unref();
    // close() also closes idle keep-alive connections at once.
    const closeEverything = async () => {
      logger.info('all connections closed');
      // QUIT fails at once when Redis is down (no offline queue): then just drop the socket.
      await redis?.quit().catch(() => redis.disconnect());
      try {
        await checkpointer?.stop();
        await handle.close();
        logger.info('database closed');
      } catch (error) {
        logger.error({ err: error }, 'closing the database failed');
        exitAfterLogs(logger, 1);
        return;
      }
      logger.info('stopped');
      exitAfterLogs(logger, 0);
    };
    server.close(() => void closeEverything());
  };
  if (isWorker) {
    stopWorker = shutdown;
  } else {
    process.on('SIGTERM', () => shutdown('SIGTERM'));
    process.on('SIGINT', () => shutdown('SIGINT'));
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error('Task Manager failed to start:', error instanceof Error ? error.message : error);
  }
  process.exit(1);
});
