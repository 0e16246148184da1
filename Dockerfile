# syntax=docker/dockerfile:1
# Task Manager: the API and the web app in one image.
#   docker build -t task-manager .
#   docker run -p 8000:8000 -e JWT_SECRET=... -v taskmanager-data:/data task-manager
# See docker-compose.yml for the PostgreSQL setup and README.md ("Deploy with Docker Compose").

ARG NODE_IMAGE=node:20-bookworm-slim

# ---- build: every dependency, compile the native modules, build all three packages -------------
FROM ${NODE_IMAGE} AS build
# better-sqlite3 compiles from source when no prebuilt binary fits: python3, make and g++.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
# The same major as `npx pnpm@10` in the README; the lockfile decides every package version.
ARG PNPM_VERSION=10
RUN npm install -g "pnpm@${PNPM_VERSION}" && npm cache clean --force
ENV CI=true \
  TURBO_TELEMETRY_DISABLED=1
WORKDIR /app

# Manifests first: the dependency layer is rebuilt only when they or the lockfile change.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
COPY packages/shared/package.json packages/shared/
RUN pnpm install --frozen-lockfile

COPY . .
RUN pnpm build

# The API with its production dependencies only, in a folder of its own (node_modules with
# @task-manager/shared copied in, not linked). --legacy: the workspace does not inject packages.
# The checks fail the build here rather than the container at start-up: shared's build and the
# web app must be there, and the native modules must load on this platform. The web app's source
# maps stay out of the image (the server would not serve them anyway).
RUN pnpm --filter @task-manager/api --prod deploy --legacy /prod/api \
  && cd /prod/api \
  && rm -rf src test dist .turbo tsconfig*.json vitest.config.ts \
  && cp -r /app/apps/api/dist dist \
  && test -f node_modules/@task-manager/shared/dist/index.js \
  && test -f /app/apps/web/dist/index.html \
  && node -e "new (require('better-sqlite3'))(':memory:').prepare('select 1').get(); require('sharp')" \
  && find /app/apps/web/dist -name '*.map' -delete

# ---- runtime: Node, the built app and its production dependencies; no compilers, no sources ----
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
  PORT=8000 \
  DATA_DIR=/data
WORKDIR /app
# The layout server.ts expects: it serves ../../web/dist relative to apps/api/dist.
# Owned by root and read-only for the app user: the app cannot rewrite its own code.
COPY --from=build /prod/api apps/api
COPY --from=build /app/apps/web/dist apps/web/dist
# DATA_DIR: the SQLite database and, outside production, the generated JWT secret. Backups
# (`node dist/cli/backup.js`) go to /data/backups. Owner-only: it holds the password hashes (a
# new named volume takes this mode from the image).
RUN mkdir -p /data && chown node:node /data && chmod 700 /data
VOLUME ["/data"]
# The unprivileged user the node image provides (uid 1000).
USER node
WORKDIR /app/apps/api
EXPOSE 8000
# No curl in slim images: ask with Node itself. /api/health answers while the process serves.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node as PID 1 gets SIGTERM from `docker stop` and shuts down gracefully (server.ts).
CMD ["node", "--enable-source-maps", "dist/server.js"]
