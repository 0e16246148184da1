import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startBaseline, startFloor } from './baseline.js';
import { prepareDatabase, startBenchApi, type BenchEngine } from './bench-database.js';
import { eventStreamsTable, measureEventStreams, type EventStreamsResult } from './bench-events.js';
import { measure, type LoadShape, type Measurement } from './bench-measure.js';
import {
  checkBudgets,
  endpointTable,
  growthTable,
  machine,
  markdownTable,
  sourceVersion,
  type EndpointResult,
  type GrowthRow,
} from './bench-report.js';
import { cleanUp, openSession, scenarios } from './bench-scenarios.js';
import { resultsDir } from './paths.js';
import { requireBuiltApi } from './server.js';

const USAGE = `Usage: pnpm bench [--tasks 100000] [--users 1000] [--duration 10] [--warmup 2]
                  [--connections 32] [--growth-max 100000] [--streams 1000] [--quick]
                  [--only taskPage,adminDashboard,…]

Measures the built API (apps/api/dist) on a seeded database: SQLite in tools/bench/results, or
PostgreSQL when DATABASE_URL is set (on that server, in databases named bench_t<tasks>_u<users>).
  --quick       10,000 tasks, growth at 1k and 10k, 3 s per endpoint (for development)
  --growth-max  the largest size of the growth table (1000000 needs PostgreSQL)
  --streams     live-update event streams held open at once, and the fan-out of 20 changes to
                all of them (0: skip)
  --only        measure only these rows (their keys, comma-separated, as in the JSON report), for
                a before-and-after of a few; no growth table`;

const GROWTH_SIZES = [1_000, 10_000, 100_000, 1_000_000];
const SQLITE_GROWTH_MAX = 100_000;

interface Options {
  tasks: number;
  users: number;
  shape: LoadShape;
  growthSizes: number[];
  /** Event streams opened after the endpoints (0: none). */
  streams: number;
  quick: boolean;
  /** The scenario keys to measure (undefined: every one). */
  only: Set<string> | undefined;
}

function parseOptions(): Options {
  const { values } = parseArgs({
    args: process.argv.slice(2).filter((arg) => arg !== '--'),
    options: {
      tasks: { type: 'string' },
      users: { type: 'string', default: '1000' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string', default: '32' },
      'growth-max': { type: 'string' },
      streams: { type: 'string' },
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const number = (name: string, value: string | undefined, fallback: number, min = 1) => {
    if (value === undefined) return fallback;
    const parsed = Number(value);
    if (!/^\d+$/.test(value) || parsed < min) {
      console.error(`--${name} must be a whole number of at least ${min}, not "${value}".`);
      process.exit(2);
    }
    return parsed;
  };
  const quick = values.quick;
  const growthMax = number('growth-max', values['growth-max'], quick ? 10_000 : 100_000);
  if (growthMax > SQLITE_GROWTH_MAX && !process.env.DATABASE_URL) {
    console.error(`--growth-max above ${SQLITE_GROWTH_MAX} needs PostgreSQL: set DATABASE_URL.`);
    process.exit(2);
  }
  return {
    tasks: number('tasks', values.tasks, quick ? 10_000 : 100_000),
    users: number('users', values.users, 1_000),
    shape: {
      connections: number('connections', values.connections, 32),
      durationS: number('duration', values.duration, quick ? 3 : 10),
      warmupS: number('warmup', values.warmup, quick ? 1 : 2, 0),
    },
    growthSizes: values.only ? [] : GROWTH_SIZES.filter((size) => size <= growthMax),
    streams: number('streams', values.streams, 1000, 0),
    quick,
    only: values.only ? new Set(values.only.split(',').map((key) => key.trim())) : undefined,
  };
}

const log = (line: string) => console.log(line);

/** The built server on `database`, as production runs it, with limits that do not get in the way. */
async function main() {
  const options = parseOptions();
  requireBuiltApi();
  const postgresUrl = process.env.DATABASE_URL;
  const engine: BenchEngine = postgresUrl ? 'postgres' : 'sqlite';
  const size = { tasks: options.tasks, users: options.users };
  const startedAt = new Date();
  const machineBefore = machine();
  const { connections, durationS, warmupS } = options.shape;
  log(
    `Machine: ${machineBefore.cpu}, ${machineBefore.cores} cores, ${machineBefore.memoryGb} GB, ` +
      `Node ${machineBefore.node}; load average ${machineBefore.loadAverage.toFixed(2)}`,
  );
  if (machineBefore.loadAverage > machineBefore.cores) {
    log(
      `Warning: other processes keep ${machineBefore.loadAverage.toFixed(1)} cores busy on ` +
        `average; every figure below is lower than this machine can do on its own.`,
    );
  }
  log(
    `Engine: ${engine}; ${connections} connections, ${warmupS} s warm-up + ${durationS} s ` +
      `per endpoint\n`,
  );
  fs.mkdirSync(resultsDir, { recursive: true });

  // The endpoints, on the full-size database.
  const database = await prepareDatabase(engine, size, postgresUrl, log);
  const jwtSecret = randomBytes(32).toString('hex');
  const server = await startBenchApi(database, jwtSecret);
  const endpoints: Array<Omit<EndpointResult, 'ofBaseline' | 'ofFloor'>> = [];
  let taskPageBytes: number;
  let adminToken: string;
  let eventStreams: EventStreamsResult | null = null;
  try {
    const session = await openSession(server.url, size.tasks);
    taskPageBytes = session.taskPageBytes;
    adminToken = session.admin.token;
    try {
      const chosen = scenarios(session).filter((s) => options.only?.has(s.key) ?? true);
      const unknown = [...(options.only ?? [])].filter(
        (key) => !chosen.some((scenario) => scenario.key === key),
      );
      if (unknown.length > 0) throw new Error(`--only: no row named ${unknown.join(', ')}`);
      for (const scenario of chosen) {
        process.stdout.write(`Measuring ${scenario.label}…`);
        const shape = {
          ...options.shape,
          connections: scenario.connections ?? connections,
          ratePerSec: scenario.ratePerSec,
        };
        const result = await measure(server.url, scenario.workload, shape, server.pid);
        if (scenario.expectedStatus !== undefined) {
          result.errors -= result.statusCodes[String(scenario.expectedStatus)] ?? 0;
        }
        log(` ${Math.round(result.requestsPerSec)} req/s, p99 ${result.p99Ms} ms`);
        endpoints.push({
          key: scenario.key,
          label: scenario.label,
          p50BudgetMs: scenario.p50BudgetMs,
          ...result,
        });
      }
      if (options.streams > 0) {
        log(`Opening ${options.streams} event streams (GET /api/events) as the admin…`);
        eventStreams = await measureEventStreams(server.url, adminToken, server.pid, {
          streams: options.streams,
          log,
        });
        log(
          `  fan-out p50 ${eventStreams.fanOutP50Ms} ms, p99 ${eventStreams.fanOutP99Ms} ms, ` +
            `${eventStreams.missedEvents} missed`,
        );
      }
    } finally {
      await cleanUp(session);
    }
  } finally {
    await server.stop();
  }

  // The ceiling: bare Express answering a body of the task page's size.
  const baselineServer = await startBaseline(taskPageBytes);
  let baseline: Measurement;
  try {
    process.stdout.write(`Measuring bare Express (${taskPageBytes} bytes per answer)…`);
    baseline = await measure(baselineServer.url, { path: '/' }, options.shape, baselineServer.pid);
    log(` ${Math.round(baseline.requestsPerSec)} req/s`);
  } finally {
    await baselineServer.stop();
  }

  // The floor: the same admin task page on plain node:http and raw SQLite statements (issue 19).
  let floor: Measurement | null = null;
  if ('DATA_DIR' in database && engine === 'sqlite') {
    const floorServer = await startFloor(path.join(database.DATA_DIR, 'taskmanager.db'), jwtSecret);
    try {
      const sample = await fetch(new URL('/api/tasks', floorServer.url), {
        headers: { authorization: `Bearer ${adminToken}` },
      });
      const floorBytes = (await sample.arrayBuffer()).byteLength;
      process.stdout.write(`Measuring the floor (node:http + SQLite, ${floorBytes} bytes)…`);
      floor = await measure(
        floorServer.url,
        { path: '/api/tasks', headers: { authorization: `Bearer ${adminToken}` } },
        options.shape,
        floorServer.pid,
      );
      log(` ${Math.round(floor.requestsPerSec)} req/s`);
    } finally {
      await floorServer.stop();
    }
  }
  const results: EndpointResult[] = endpoints.map((endpoint) => ({
    ...endpoint,
    ofBaseline: endpoint.requestsPerSec / baseline.requestsPerSec,
    ofFloor: floor ? endpoint.requestsPerSec / floor.requestsPerSec : null,
  }));

  // How the task page and the admin dashboard grow with the number of tasks.
  const growth: GrowthRow[] = [];
  for (const tasks of options.growthSizes) {
    if (tasks === options.tasks) {
      const measured = (key: string) => results.find((r) => r.key === key)!;
      growth.push({
        tasks,
        taskPage: measured('taskPage'),
        adminDashboard: measured('adminDashboard'),
      });
      continue;
    }
    const grown = await prepareDatabase(engine, { tasks, users: options.users }, postgresUrl, log);
    const growthServer = await startBenchApi(grown);
    try {
      const session = await openSession(growthServer.url, tasks);
      const workload = (key: string) => scenarios(session).find((s) => s.key === key)!.workload;
      process.stdout.write(`Growth at ${tasks.toLocaleString('en')} tasks…`);
      const pid = growthServer.pid;
      const taskPage = await measure(growthServer.url, workload('taskPage'), options.shape, pid);
      const adminDashboard = await measure(
        growthServer.url,
        workload('adminDashboard'),
        options.shape,
        pid,
      );
      log(` task page p99 ${taskPage.p99Ms} ms, dashboard p99 ${adminDashboard.p99Ms} ms`);
      growth.push({ tasks, taskPage, adminDashboard });
    } finally {
      await growthServer.stop();
    }
  }
  growth.sort((a, b) => a.tasks - b.tasks);

  const machineAfter = machine();
  const budgets = checkBudgets(results);
  if (eventStreams) {
    // No budget for the delay (figures only); every stream must get every change.
    budgets.push({
      budget: `Live updates: every change reaches all ${eventStreams.streams} streams`,
      limit: '0 missed',
      measured: `${eventStreams.missedEvents} missed (fan-out p99 ${eventStreams.fanOutP99Ms} ms)`,
      pass: eventStreams.missedEvents === 0 && eventStreams.streamsMissing === 0,
    });
  }
  const table = endpointTable(results, baseline, floor);
  const growthRows = growthTable(growth);
  const budgetTable = budgets.map((check) => ({
    budget: check.budget,
    limit: check.limit,
    measured: check.measured,
    result: check.pass ? 'pass' : 'MISS',
  }));

  log(`\n${engine}, ${options.tasks.toLocaleString('en')} tasks, ${options.users} members:`);
  console.table(table);
  log('Growth:');
  console.table(growthRows);
  if (eventStreams) {
    log('Live updates (event streams on one process):');
    console.table(eventStreamsTable(eventStreams));
  }
  log('Budgets:');
  console.table(budgetTable);
  log(
    `Load average ${machineBefore.loadAverage.toFixed(2)} before, ${machineAfter.loadAverage.toFixed(2)} after.`,
  );

  const file = path.join(
    resultsDir,
    `bench-${engine}-${startedAt.toISOString().replaceAll(':', '-').replace(/\..+/, '')}.json`,
  );
  const report = {
    startedAt: startedAt.toISOString(),
    engine,
    source: sourceVersion(),
    machine: { ...machineBefore, loadAverageAfter: machineAfter.loadAverage },
    options: {
      ...size,
      ...options.shape,
      streams: options.streams,
      quick: options.quick,
      only: options.only ? [...options.only] : undefined,
    },
    baseline: { bodyBytes: taskPageBytes, ...baseline },
    floor,
    endpoints: results,
    growth,
    eventStreams,
    budgets,
    markdown: { endpoints: markdownTable(table), growth: markdownTable(growthRows) },
  };
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  log(`\nWritten to ${path.relative(process.cwd(), file)}`);
  const misses = budgets.filter((check) => !check.pass).length;
  log(misses === 0 ? 'Every budget met.' : `${misses} budget(s) missed.`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
