import { execFileSync } from 'node:child_process';
import os from 'node:os';
import type { Measurement } from './bench-measure.js';
import { repoRoot } from './paths.js';

export interface EndpointResult extends Measurement {
  key: string;
  label: string;
  /** Requests per second as a share of the bare Express baseline's. */
  ofBaseline: number;
  /** Requests per second as a share of the floor's (node:http + SQLite; null: not measured). */
  ofFloor: number | null;
  /** Its scenario's goal for p50 (the search and filter rows), if any. */
  p50BudgetMs?: number;
}

export interface GrowthRow {
  tasks: number;
  taskPage: Measurement;
  adminDashboard: Measurement;
}

const cpuCell = (m: Measurement) =>
  m.serverCpuMsPerRequest === null ? 'n/a' : Number(m.serverCpuMsPerRequest.toFixed(2));

export function growthTable(growth: GrowthRow[]) {
  return growth.map((row) => ({
    tasks: row.tasks.toLocaleString('en'),
    'task page p99 ms': row.taskPage.p99Ms,
    'task page CPU ms/req': cpuCell(row.taskPage),
    'admin dashboard p99 ms': row.adminDashboard.p99Ms,
    'admin dashboard CPU ms/req': cpuCell(row.adminDashboard),
  }));
}

export interface BudgetCheck {
  budget: string;
  limit: string;
  measured: string;
  pass: boolean;
}

/** The commit measured (the built API may also hold uncommitted changes: `dirty`). */
export function sourceVersion(): { commit: string; dirty: boolean } | null {
  try {
    const git = (...args: string[]) =>
      execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).trim();
    return {
      commit: git('rev-parse', '--short', 'HEAD'),
      dirty:
        git(
          'status',
          '--porcelain',
          '--untracked-files=no',
          '--',
          'apps/api',
          'packages/shared',
        ) !== '',
    };
  } catch {
    return null;
  }
}

export function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    /** Other work on the machine skews every figure: the 1-minute load average says how much. */
    loadAverage: os.loadavg()[0]!,
  };
}

const P99_BUDGETS_MS: Record<string, number> = {
  taskPage: 25,
  statusTab: 25,
  memberTaskPage: 25,
  oneTask: 25,
  adminDashboard: 50,
  memberDashboard: 50,
  tick: 30,
};
/** The task page should keep at least this share of what bare Express serves. */
const MIN_SHARE_OF_BASELINE = 0.4;

/**
 * Server CPU per request (issue 19; SQLite, 100,000 tasks, one process). Sign-in stays
 * bcrypt-bound by design and has none.
 */
const CPU_BUDGETS_MS: Record<string, number> = {
  taskPage: 2.0,
  memberTaskPage: 2.5,
  statusTab: 2.0,
  oneTask: 0.4,
  adminDashboard: 0.8,
  memberDashboard: 0.8,
  tick: 0.6,
  createTask: 1.0,
};
/** The task page should reach this share of the floor's throughput (issue 19). */
const MIN_SHARE_OF_FLOOR = 0.6;
/** p99 of the task page, and of the real mix, arriving at the open models' rates (issue 19). */
const OPEN_MODEL_P99_MS = 25;

/** A latency budget: the endpoint's p50 or p99 under `limit` ms. */
function latencyCheck(endpoint: EndpointResult, which: 'p50' | 'p99', limit: number): BudgetCheck {
  const ms = which === 'p50' ? endpoint.p50Ms : endpoint.p99Ms;
  return {
    budget: `${endpoint.label} ${which}`,
    limit: `< ${limit} ms`,
    // A run in which nothing came back has no latency to show, and certainly no pass.
    measured: endpoint.requests > 0 ? `${ms} ms` : 'no answers',
    pass: endpoint.requests > 0 && ms < limit,
  };
}

export function checkBudgets(endpoints: EndpointResult[]): BudgetCheck[] {
  const checks: BudgetCheck[] = [];
  for (const endpoint of endpoints) {
    const limit = P99_BUDGETS_MS[endpoint.key];
    if (limit !== undefined) checks.push(latencyCheck(endpoint, 'p99', limit));
  }
  for (const endpoint of endpoints) {
    const limit = CPU_BUDGETS_MS[endpoint.key];
    if (limit === undefined) continue;
    const cpu = endpoint.serverCpuMsPerRequest;
    checks.push({
      budget: `${endpoint.label} server CPU`,
      limit: `≤ ${limit.toFixed(1)} ms/req`,
      measured: cpu === null ? 'not measurable here' : `${cpu.toFixed(2)} ms/req`,
      pass: cpu !== null && cpu <= limit,
    });
  }
  for (const endpoint of endpoints) {
    if (endpoint.p50BudgetMs !== undefined) {
      checks.push(latencyCheck(endpoint, 'p50', endpoint.p50BudgetMs));
    }
  }
  for (const open of endpoints.filter((e) => e.key === 'taskPageOpen' || e.key === 'mixedOpen')) {
    checks.push(latencyCheck(open, 'p99', OPEN_MODEL_P99_MS));
  }
  const errors = endpoints.filter((endpoint) => endpoint.errors > 0);
  checks.push({
    budget: 'errors (non-2xx and socket errors), all endpoints',
    limit: '0',
    measured:
      errors.length === 0
        ? '0'
        : errors.map((e) => `${e.key} ${e.errors} ${JSON.stringify(e.statusCodes)}`).join('; '),
    pass: errors.length === 0,
  });
  const taskPage = endpoints.find((endpoint) => endpoint.key === 'taskPage');
  if (taskPage) {
    checks.push({
      budget: 'task page throughput vs bare Express',
      limit: `≥ ${MIN_SHARE_OF_BASELINE * 100}%`,
      measured: `${(taskPage.ofBaseline * 100).toFixed(0)}%`,
      pass: taskPage.ofBaseline >= MIN_SHARE_OF_BASELINE,
    });
    checks.push({
      budget: 'task page throughput vs the floor (node:http + raw SQLite)',
      limit: `≥ ${MIN_SHARE_OF_FLOOR * 100}%`,
      measured:
        taskPage.ofFloor === null
          ? 'no floor (SQLite only)'
          : `${(taskPage.ofFloor * 100).toFixed(0)}%`,
      pass: taskPage.ofFloor !== null && taskPage.ofFloor >= MIN_SHARE_OF_FLOOR,
    });
  }
  return checks;
}

const oneDecimal = (value: number) => Number(value.toFixed(1));

export function endpointTable(
  endpoints: EndpointResult[],
  baseline: Measurement,
  floor: Measurement | null = null,
) {
  const share = (value: number | null) => (value === null ? 'n/a' : Number(value.toFixed(2)));
  // CPU as a share of the floor's in the same run: comparable across machines of other speeds
  // (or one machine at other times), where the absolute figures are not.
  const floorCpu = floor?.serverCpuMsPerRequest ?? null;
  const ofFloorCpu = (m: Measurement) =>
    floorCpu && m.serverCpuMsPerRequest !== null ? m.serverCpuMsPerRequest / floorCpu : null;
  const row = (label: string, m: Measurement, ofBaseline: number, ofFloor: number | null) => ({
    endpoint: label,
    'req/s': Math.round(m.requestsPerSec),
    'p50 ms': oneDecimal(m.p50Ms),
    'p99 ms': oneDecimal(m.p99Ms),
    errors: m.errors,
    '× baseline': Number(ofBaseline.toFixed(2)),
    '× floor': share(ofFloor),
    'server CPU ms/req': cpuCell(m),
    'CPU ÷ floor CPU': share(ofFloorCpu(m)),
  });
  return [
    ...endpoints.map((e) => row(e.label, e, e.ofBaseline, e.ofFloor)),
    ...(floor
      ? [
          row(
            'floor: the admin task page on node:http + raw SQLite',
            floor,
            floor.requestsPerSec / baseline.requestsPerSec,
            1,
          ),
        ]
      : []),
    row(
      'bare Express, same body size (baseline)',
      baseline,
      1,
      floor ? baseline.requestsPerSec / floor.requestsPerSec : null,
    ),
  ];
}

/** A Markdown table, for docs/performance.md. */
export function markdownTable(rows: Array<Record<string, unknown>>): string {
  const columns = Object.keys(rows[0] ?? {});
  const cell = (value: unknown) => String(value);
  return [
    `| ${columns.join(' | ')} |`,
    `| ${columns.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${columns.map((column) => cell(row[column])).join(' | ')} |`),
  ].join('\n');
}
