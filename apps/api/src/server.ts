import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { createApp } from './app.js';
import { ConfigError, parseEnv } from './config.js';
import { migrateToLatest, openDatabase } from './db/database.js';
import { writePidFile } from './pid-file.js';
import { resolveAdminInviteToken, resolveJwtSecret } from './settings.js';

const SHUTDOWN_GRACE_MS = 10_000;

async function main() {
  const env = parseEnv();
  const logger = pino({ level: env.LOG_LEVEL, redact: ['req.headers.authorization'] });
  const handle = env.DATABASE_URL
    ? openDatabase({ engine: 'postgres', url: env.DATABASE_URL })
    : openDatabase({ engine: 'sqlite', file: path.join(env.DATA_DIR, 'taskmanager.db') });
  await migrateToLatest(handle);
  // `pnpm restore` refuses to swap the SQLite file while this pid is alive.
  if (handle.engine === 'sqlite') writePidFile(env.DATA_DIR);
  const invite = await resolveAdminInviteToken(handle.db, env.ADMIN_INVITE_TOKEN);
  const webDistDir = fileURLToPath(new URL('../../web/dist', import.meta.url));

  const app = createApp({
    db: handle.db,
    logger,
    config: {
      jwtSecret: resolveJwtSecret(env.JWT_SECRET, env.DATA_DIR),
      jwtExpiresIn: env.JWT_EXPIRES_IN,
      adminInviteToken: invite.token,
      corsOrigins: env.CORS_ORIGIN,
      authRateLimit: env.AUTH_RATE_LIMIT,
      bcryptCost: env.BCRYPT_COST,
      trustProxy: env.TRUST_PROXY,
      webDistDir,
    },
  });

  const server = app.listen(env.PORT, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : env.PORT;
    logger.info({ engine: handle.engine, database: handle.location }, 'database ready');
    if (invite.generated) {
      logger.info(`Admin invite token (set ADMIN_INVITE_TOKEN to choose one): ${invite.token}`);
    }
    logger.info(`Task Manager listening on http://localhost:${port}`);
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing requests in flight');
    const force = setTimeout(() => {
      logger.warn('requests still open after the grace period; closing them');
      server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    server.close(async () => {
      await handle.close();
      logger.info('stopped');
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error('Task Manager failed to start:', error instanceof Error ? error.message : error);
  }
  process.exit(1);
});
