import { randomBytes, randomInt } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  WRITE_KINDS,
  newStats,
  runClient,
  seedTeam,
  signInClients,
  verifyTeam,
  type Stats,
  type Verification,
} from './load-workload.js';
import { resultsDir } from './paths.js';
import { DEFAULT_POSTGRES_URL, createScratchDatabase } from './postgres.js';
import {
  cpuSecondsOf,
  freePort,
  requireBuiltApi,
  rssBytesOf,
  startBuiltServer,
  tempDataDir,
} from './server.js';

/**
 * pnpm test:load: the built API under many clients for a while, on SQLite and PostgreSQL.
 * Fails on any 5xx or unanswered request, any acknowledged write the server does not hold
 * afterwards, or memory that keeps growing (RSS of the last third over the middle third).
 */
const USAGE = `Usage: pnpm test:load [--engine sqlite|postgres|both] [--duration 60] [--clients 100]
                      [--members 20] [--tasks 200] [--postgres-url ${DEFAULT_POSTGRES_URL}]
                      [--log-level info]`;

/**
 * RSS may grow this much from the middle third of the run to the last before we call it a leak.
 * The first third is V8 growing its heap to what the load needs, and is not compared: in a 60 s
 * run RSS went 160 -> 260 MB in the first 30 s and +8 % in the next 30 (PostgreSQL; SQLite
 * +6.5 %), which first-third-to-last read as 22-29 % against the old 30 % limit. A leak keeps
 * growing at the same pace: here 15 % is 2 MB/s (the old limit caught 1.65 MB/s, and the heap
 * settling as well).
 */
const MAX_RSS_GROWTH = 0.15;
/** Clients start spread over this long (at most a sixth of the run). */
const RAMP_UP_MS = 10_000;

type Engine = 'sqlite' | 'postgres';

interface Options {
  engines: Engine[];
  durationS: number;
  clients: number;
  members: number;
  tasks: number;
  postgresUrl: string;
  /** The server's LOG_LEVEL: info logs every request, as in production by default. */
  logLevel: string;
}

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      engine: { type: 'string', default: 'both' },
      duration: { type: 'string', default: '60' },
      clients: { type: 'string', default: '100' },
      members: { type: 'string', default: '20' },
      tasks: { type: 'string', default: '200' },
      'postgres-url': { type: 'string', default: DEFAULT_POSTGRES_URL },
      'log-level': { type: 'string', default: 'info' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const positive = (name: string, value: string) => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < 1) {
      console.error(`--${name} must be a positive whole number, not "${value}"\n${USAGE}`);
      process.exit(2);
    }
    return number;
  };
  const engines: Record<string, Engine[]> = {
    sqlite: ['sqlite'],
    postgres: ['postgres'],
    both: ['sqlite', 'postgres'],
  };
  if (!engines[values.engine]) {
    console.error(`--engine must be sqlite, postgres or both, not "${values.engine}"\n${USAGE}`);
    process.exit(2);
  }
  return {
    engines: engines[values.engine]!,
    durationS: positive('duration', values.duration),
    clients: positive('clients', values.clients),
    members: positive('members', values.members),
    tasks: positive('tasks', values.tasks),
    postgresUrl: values['postgres-url'],
    logLevel: values['log-level'],
  };
}

interface RssSample {
  /** Seconds since the load began. */
  t: number;
  rssMb: number;
}

const percentile = (sorted: number[], q: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
const round = (value: number, digits = 1) => Number(value.toFixed(digits));
const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

/** RSS at the start, middle and end, and the growth from the middle third to the last. */
function memoryTrend(samples: RssSample[], durationS: number) {
  const middleThird = samples.filter((s) => s.t >= durationS / 3 && s.t < (2 * durationS) / 3);
  const lastThird = samples.filter((s) => s.t >= (2 * durationS) / 3);
  const early = middleThird.length > 0 ? middleThird : samples.slice(0, 1);
  const growth =
    early.length > 0 && lastThird.length > 0
      ? mean(lastThird.map((s) => s.rssMb)) / mean(early.map((s) => s.rssMb)) - 1
      : 0;
  const nearest = (t: number) =>
    samples.reduce((best, s) => (Math.abs(s.t - t) < Math.abs(best.t - t) ? s : best)).rssMb;
  return {
    startMb: nearest(0),
    middleMb: nearest(durationS / 2),
    endMb: nearest(durationS),
    growth: round(growth, 3),
  };
}

interface EngineResult {
  engine: Engine;
  requests: number;
  durationS: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  /** The server's own response times (its log): the client's latency minus the queueing. */
  serverTimeMs: { p50: number; p99: number };
  statuses: Record<string, number>;
  classes: { '2xx': number; '4xx': number; '5xx': number; noAnswer: number };
  operations: Record<string, { count: number; p50: number; p99: number }>;
  verification: Verification;
  /** A few of the answers that were not 2xx, for diagnosis. */
  unexpected: string[];
  memory: ReturnType<typeof memoryTrend> & { samples: RssSample[] };
  /**
   * Share of one core the server and this load generator used: on a machine shared with other
   * work, a server far below 100% was starved of CPU, and its latencies say more about that.
   */
  cpu: { serverPercent: number; loadGeneratorPercent: number };
  /** Requests sent in each second of the run, how many failed, and the slowest. */
  timeline: { second: number; sent: number; failed: number; slowestMs: number }[];
  failures: string[];
  pass: boolean;
}

/** Response times the server logged (pino-http's responseTime) for requests sent from `since`. */
function serverTimes(logFile: string, since: number, until: number): number[] {
  const times: number[] = [];
  for (const line of fs.readFileSync(logFile, 'utf8').split('\n')) {
    if (!line.includes('"responseTime"')) continue;
    try {
      const entry = JSON.parse(line) as { time: number; responseTime: number };
      if (entry.time - entry.responseTime >= since && entry.time <= until) {
        times.push(entry.responseTime);
      }
    } catch {
      // Not a JSON log line.
    }
  }
  return times.sort((a, b) => a - b);
}

function summarise(
  engine: Engine,
  stats: Stats,
  cpu: EngineResult['cpu'],
  serverTimesMs: number[],
  elapsedS: number,
  samples: RssSample[],
  verification: Verification,
  durationS: number,
): EngineResult {
  const sorted = [...stats.latencies].sort((a, b) => a - b);
  const statuses = Object.fromEntries([...stats.statuses].sort(([a], [b]) => a - b));
  const count = (test: (status: number) => boolean) =>
    [...stats.statuses].filter(([status]) => test(status)).reduce((sum, [, n]) => sum + n, 0);
  const classes = {
    '2xx': count((s) => s >= 200 && s < 300),
    '4xx': count((s) => s >= 400 && s < 500),
    '5xx': count((s) => s >= 500),
    noAnswer: count((s) => s === 0),
  };
  const operations = Object.fromEntries(
    [...stats.byOperation].map(([name, op]) => {
      const times = [...op.latencies].sort((a, b) => a - b);
      return [
        name,
        {
          count: op.count,
          p50: round(percentile(times, 0.5)),
          p99: round(percentile(times, 0.99)),
        },
      ];
    }),
  );
  const memory = { ...memoryTrend(samples, durationS), samples };

  const failures: string[] = [];
  if (classes['5xx'] > 0) failures.push(`${classes['5xx']} server errors (5xx)`);
  if (classes.noAnswer > 0) failures.push(`${classes.noAnswer} requests got no answer`);
  const lost = WRITE_KINDS.reduce((sum, kind) => sum + verification.lost[kind], 0);
  if (lost > 0) failures.push(`${lost} acknowledged writes not found afterwards`);
  if (memory.growth > MAX_RSS_GROWTH) {
    failures.push(
      `RSS grew ${Math.round(memory.growth * 100)}% from the middle third to the last (limit ${MAX_RSS_GROWTH * 100}%)`,
    );
  }
  return {
    engine,
    requests: sorted.length,
    durationS: round(elapsedS),
    requestsPerSecond: round(sorted.length / elapsedS),
    latencyMs: {
      p50: round(percentile(sorted, 0.5)),
      p90: round(percentile(sorted, 0.9)),
      p99: round(percentile(sorted, 0.99)),
      max: round(sorted.at(-1) ?? 0),
    },
    serverTimeMs: {
      p50: round(percentile(serverTimesMs, 0.5)),
      p99: round(percentile(serverTimesMs, 0.99)),
    },
    statuses,
    classes,
    operations,
    verification,
    unexpected: stats.samples,
    memory,
    cpu,
    timeline: [...stats.timeline]
      .sort(([a], [b]) => a - b)
      .map(([second, slot]) => ({ second, ...slot })),
    failures,
    pass: failures.length === 0,
  };
}

async function runEngine(
  engine: Engine,
  options: Options,
  serverLog: string,
): Promise<EngineResult> {
  const dataDir = tempDataDir('tm-load-');
  const database =
    engine === 'postgres'
      ? await createScratchDatabase(options.postgresUrl).catch((error: unknown) => {
          throw new Error(
            `PostgreSQL is not reachable at ${options.postgresUrl} (${String(error)}). ` +
              'Start it, pass --postgres-url, or run with --engine sqlite.',
          );
        })
      : null;
  const inviteToken = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const log = (text: string) => console.log(`[${engine}] ${text}`);
  log(database ? `database ${database.name} on ${options.postgresUrl}` : `data in ${dataDir}`);
  const server = await startBuiltServer(
    {
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      ...(database ? { DATABASE_URL: database.url } : {}),
      JWT_SECRET: randomBytes(32).toString('hex'),
      ADMIN_INVITE_TOKEN: inviteToken,
      // Each client signs in once; the per-IP limit for people would refuse a hundred at once.
      AUTH_RATE_LIMIT: '100000',
      // Sign-ins happen before the measured part; a lower cost only shortens the set-up.
      BCRYPT_COST: '8',
      LOG_LEVEL: options.logLevel,
      // Above info the server does not print the port it got: choose one.
      ...(['info', 'debug', 'trace'].includes(options.logLevel)
        ? {}
        : { PORT: String(await freePort()) }),
    },
    { logFile: serverLog },
  );
  try {
    log(`server pid ${server.pid} at ${server.url}; seeding`);
    const team = await seedTeam({
      base: server.url,
      inviteToken,
      members: options.members,
      tasks: options.tasks,
      clients: options.clients,
    });
    const tokens = await signInClients(team, options.clients);
    log(
      `${options.members} members, ${team.tasks.length} tasks, ${options.clients} clients signed in; ` +
        `running ${options.durationS} s`,
    );

    const stats = newStats();
    const samples: RssSample[] = [];
    const started = stats.startedAt;
    const serverCpuBefore = cpuSecondsOf(server.pid) ?? 0;
    const ownCpuBefore = process.cpuUsage();
    const sample = () => {
      const rss = rssBytesOf(server.pid);
      if (rss !== undefined) {
        samples.push({ t: round((Date.now() - started) / 1000), rssMb: round(rss / 2 ** 20) });
      }
    };
    sample();
    // Every 5 s; shorter runs sample more often so that each third still has samples.
    const sampler = setInterval(sample, Math.min(5000, (options.durationS * 1000) / 12));
    const until = started + options.durationS * 1000;
    // Clients join one by one over the ramp-up, as people do: a hundred new connections in the
    // same instant wait in the listen queue, since Node accepts new connections slowly while
    // it is busy serving the ones it has (seen here: over 30 s on a starved CPU).
    const rampMs = Math.min(RAMP_UP_MS, (options.durationS * 1000) / 6);
    await Promise.all(
      tokens.map(async (token, index) => {
        await new Promise((resolve) => setTimeout(resolve, (rampMs * index) / tokens.length));
        await runClient(team, stats, index, options.clients, token, until);
      }),
    );
    clearInterval(sampler);
    sample();
    const elapsedS = (Date.now() - started) / 1000;
    const ownCpu = process.cpuUsage(ownCpuBefore);
    const cpu = {
      serverPercent: round((((cpuSecondsOf(server.pid) ?? 0) - serverCpuBefore) / elapsedS) * 100),
      loadGeneratorPercent: round(((ownCpu.user + ownCpu.system) / 1e6 / elapsedS) * 100),
    };

    log('verifying every acknowledged write through the API');
    const verification = await verifyTeam(team, stats);
    const ended = started + elapsedS * 1000;
    return summarise(
      engine,
      stats,
      cpu,
      serverTimes(serverLog, started, ended),
      elapsedS,
      samples,
      verification,
      options.durationS,
    );
  } catch (error) {
    console.error(`[${engine}] the run broke off. Server output (last lines):`);
    console.error(server.output().split('\n').slice(-30).join('\n'));
    throw error;
  } finally {
    const code = await server.stop();
    if (code !== 0) log(`server exited with ${code}`);
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function printTable(results: EngineResult[]) {
  const rows: [string, (r: EngineResult) => string][] = [
    ['requests', (r) => String(r.requests)],
    ['req/s', (r) => String(r.requestsPerSecond)],
    ['latency p50 / p99 (ms)', (r) => `${r.latencyMs.p50} / ${r.latencyMs.p99}`],
    ['server time p50 / p99 (ms)', (r) => `${r.serverTimeMs.p50} / ${r.serverTimeMs.p99}`],
    [
      'CPU: server / load generator',
      (r) => `${r.cpu.serverPercent}% / ${r.cpu.loadGeneratorPercent}%`,
    ],
    ['2xx / 4xx / 5xx', (r) => `${r.classes['2xx']} / ${r.classes['4xx']} / ${r.classes['5xx']}`],
    ['no answer', (r) => String(r.classes.noAnswer)],
    ...WRITE_KINDS.map(
      (kind) =>
        [
          `writes: ${kind} (acked / found)`,
          (r: EngineResult) =>
            `${r.verification.acknowledged[kind]} / ${r.verification.acknowledged[kind] - r.verification.lost[kind]}`,
        ] as [string, (r: EngineResult) => string],
    ),
    ['tasks not checkable', (r) => String(r.verification.unknown)],
    [
      'RSS start / mid / end (MB)',
      (r) => `${r.memory.startMb} / ${r.memory.middleMb} / ${r.memory.endMb}`,
    ],
    ['RSS growth, 2nd→3rd third', (r) => `${round(r.memory.growth * 100)}%`],
    ['result', (r) => (r.pass ? 'PASS' : 'FAIL')],
  ];
  const header = ['', ...results.map((r) => r.engine)];
  const body = rows.map(([label, value]) => [label, ...results.map(value)]);
  const widths = header.map((_, i) => Math.max(...[header, ...body].map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of body) console.log(line(row));
  for (const r of results) {
    for (const failure of r.failures) console.log(`[${r.engine}] FAIL: ${failure}`);
    for (const example of [...r.verification.examples, ...r.unexpected].slice(0, 8)) {
      console.log(`[${r.engine}]   ${example}`);
    }
  }
}

async function main() {
  const options = parseOptions();
  requireBuiltApi();
  fs.mkdirSync(resultsDir, { recursive: true });
  const results: EngineResult[] = [];
  for (const engine of options.engines) {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = path.join(resultsDir, `load-${engine}-${stamp}.json`);
    // The server's own log of every request, to look into a failed run.
    const serverLog = file.replace(/\.json$/, '.server.log');
    const result = await runEngine(engine, options, serverLog);
    results.push(result);
    fs.writeFileSync(
      file,
      JSON.stringify(
        { options: { ...options, engines: undefined }, node: process.version, ...result },
        null,
        2,
      ),
    );
    printTable([result]);
    console.log(
      `[${engine}] results in ${path.relative(process.cwd(), file)}, server log in ${path.basename(serverLog)}\n`,
    );
  }
  if (results.length > 1) {
    console.log('Summary:');
    printTable(results);
  }
  process.exitCode = results.every((r) => r.pass) ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
