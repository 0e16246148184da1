import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import autocannon from 'autocannon';
import { runOpenModel } from './open-model.js';

/** How hard and how long each endpoint is driven. */
export interface LoadShape {
  connections: number;
  /** Seconds measured. */
  durationS: number;
  /** Seconds driven first and thrown away: JIT, the page cache and the connection pool warm up. */
  warmupS: number;
}

/** One endpoint's figures. */
export interface Measurement {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** Non-2xx answers plus socket errors and timeouts. */
  errors: number;
  requests: number;
  /** Count per status code, to tell a 429 from a 500 when `errors` is not 0. */
  statusCodes: Record<string, number>;
  /**
   * CPU time the server process (and its workers) spent per answered request. Unlike latency it hardly changes when
   * other programs compete for the CPU, so it compares runs on a busy machine. (PostgreSQL's own
   * processes are not included.)
   */
  serverCpuMsPerRequest: number | null;
}

/** Clock ticks per second, the unit of /proc/<pid>/stat's CPU times. */
const clockTicks = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;
  } catch {
    return 100;
  }
})();

/** The fields of /proc/<pid>/stat after the command name, or null when it cannot be read. */
function statFields(pid: number): string[] | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name, in parentheses, may hold spaces: count fields after its closing one.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** `pid` and every process below it (a cluster's workers), found by their parent ids. */
function processTree(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(Number(entry));
    if (fields) parents.set(Number(entry), Number(fields[1]));
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  }
  return tree;
}

/**
 * User plus system CPU time in ms of a process and its children (with WEB_CONCURRENCY the
 * workers do the work), or null where /proc does not exist. A worker that exits between two
 * readings would drop out of the sum; the server's workers live as long as it does.
 */
function cpuMsOf(pid: number | undefined): number | null {
  if (pid === undefined || statFields(pid) === null) return null;
  let total = 0;
  for (const member of processTree(pid)) {
    const fields = statFields(member);
    if (fields) total += ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
  }
  return total;
}

/** What to send: autocannon's request list (rotating ids are set in `setupRequest`). */
export type Workload = Pick<autocannon.Options, 'requests' | 'method' | 'headers' | 'body'> & {
  path: string;
};

function run(url: string, workload: Workload, connections: number, durationS: number) {
  const { path, ...rest } = workload;
  return autocannon({
    url: new URL(path, url).toString(),
    connections,
    duration: durationS,
    // A request still unanswered after 10 s counts as an error, not as a 10 s latency.
    timeout: 10,
    ...rest,
  });
}

/** An open model's warm-up, then its measured run (open-model.ts). */
async function measureOpenModel(
  url: string,
  workload: Workload,
  shape: LoadShape & { ratePerSec: number },
  serverPid?: number,
): Promise<Measurement> {
  if (shape.warmupS > 0) await runOpenModel(url, workload, shape.ratePerSec, shape.warmupS);
  const cpuBefore = cpuMsOf(serverPid);
  const result = await runOpenModel(url, workload, shape.ratePerSec, shape.durationS);
  const cpuAfter = cpuMsOf(serverPid);
  return {
    requestsPerSec: Math.round(result.answered / shape.durationS),
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    errors: result.errors,
    requests: result.answered,
    statusCodes: result.statusCodes,
    serverCpuMsPerRequest:
      cpuBefore !== null && cpuAfter !== null && result.answered > 0
        ? (cpuAfter - cpuBefore) / result.answered
        : null,
  };
}

/**
 * Drives `workload` at fixed concurrency (or at a fixed rate) over loopback: a warm-up, then the
 * measured run.
 */
export async function measure(
  url: string,
  workload: Workload,
  shape: LoadShape & {
    /**
     * An open model: requests arrive at this rate (all connections together) whatever the
     * answers' latency, as a team's users send them, instead of each connection sending its
     * next request as soon as it has an answer. Give enough connections to keep the rate.
     */
    ratePerSec?: number;
  },
  serverPid?: number,
): Promise<Measurement> {
  const { ratePerSec } = shape;
  if (ratePerSec !== undefined) {
    return measureOpenModel(url, workload, { ...shape, ratePerSec }, serverPid);
  }
  if (shape.warmupS > 0) {
    await run(url, workload, shape.connections, shape.warmupS);
  }
  const cpuBefore = cpuMsOf(serverPid);
  const result = await run(url, workload, shape.connections, shape.durationS);
  const cpuAfter = cpuMsOf(serverPid);
  const answered = result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'];
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats.count ?? 0]),
  );
  return {
    requestsPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.non2xx + result.errors,
    requests: result.requests.total,
    statusCodes,
    serverCpuMsPerRequest:
      cpuBefore !== null && cpuAfter !== null && answered > 0
        ? (cpuAfter - cpuBefore) / answered
        : null,
  };
}
