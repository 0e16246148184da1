import autocannon from 'autocannon';

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

/** Drives `workload` at fixed concurrency over loopback: a warm-up, then the measured run. */
export async function measure(
  url: string,
  workload: Workload,
  shape: LoadShape,
): Promise<Measurement> {
  if (shape.warmupS > 0) await run(url, workload, shape.connections, shape.warmupS);
  const result = await run(url, workload, shape.connections, shape.durationS);
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
  };
}
