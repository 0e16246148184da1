import http from 'node:http';
import { performance } from 'node:perf_hooks';
import type autocannon from 'autocannon';
import type { Workload } from './bench-measure.js';

/** What an open-model run measured. */
export interface OpenModelResult {
  /** Requests sent (every one was scheduled within the run). */
  sent: number;
  /** Answers received, whatever their status. */
  answered: number;
  /** Non-2xx answers, socket errors and requests unanswered after the timeout. */
  errors: number;
  statusCodes: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
}

/**
 * An open model (issue 19): requests arrive at a fixed rate, evenly spaced (one every
 * 1000 / `ratePerSec` ms), whatever the latency of the answers, as a team's many clients send
 * them. Each request's latency runs from the moment it was due, not from when it could be sent,
 * so a load generator falling behind shows up in the figures instead of hiding them.
 *
 * Not autocannon's `overallRate`: it lets each connection send its share of a second's requests
 * back to back at the start of every second, then wait. At 200/s on 64 connections that is 64
 * requests arriving at once every 320 ms: a burst model, whose queue at each burst is what its
 * p99 measured.
 */
export async function runOpenModel(
  baseUrl: string,
  workload: Workload,
  ratePerSec: number,
  durationS: number,
  { timeoutMs = 10_000 }: { timeoutMs?: number } = {},
): Promise<OpenModelResult> {
  const url = new URL(baseUrl);
  // As many sockets as requests in flight: a slow answer never holds back the next arrival.
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const setup = workload.requests?.[0]?.setupRequest;
  if (typeof setup === 'string') throw new Error('an open model takes setupRequest as a function');
  const base: autocannon.Request = {
    method: workload.method ?? 'GET',
    path: workload.path,
    headers: workload.headers ?? {},
    body: workload.body,
  };
  const total = Math.round(ratePerSec * durationS);
  const interval = 1000 / ratePerSec;
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  let errors = 0;
  let answered = 0;

  const send = (due: number) =>
    new Promise<void>((resolve) => {
      const request = setup ? setup({ ...base }, {}) : base;
      const body = request.body === undefined ? undefined : Buffer.from(String(request.body));
      const req = http.request({
        agent,
        host: url.hostname,
        port: url.port,
        method: request.method,
        path: request.path,
        headers: { ...request.headers, ...(body && { 'content-length': body.length }) },
        timeout: timeoutMs,
      });
      const fail = () => {
        errors++;
        resolve();
      };
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', fail);
      req.on('response', (res) => {
        res.on('error', fail);
        res.resume();
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          statusCodes[status] = (statusCodes[status] ?? 0) + 1;
          if (status < 200 || status >= 300) errors++;
          answered++;
          latencies.push(performance.now() - due);
          resolve();
        });
      });
      req.end(body);
    });

  const inFlight: Array<Promise<void>> = [];
  const start = performance.now();
  let next = 0;
  await new Promise<void>((done) => {
    const tick = () => {
      const now = performance.now();
      // Every request due by now goes out, each timed from when it was due.
      while (next < total && start + next * interval <= now) {
        inFlight.push(send(start + next * interval));
        next++;
      }
      if (next >= total) return done();
      setTimeout(tick, Math.max(0, start + next * interval - performance.now()));
    };
    tick();
  });
  await Promise.all(inFlight);
  agent.destroy();

  latencies.sort((a, b) => a - b);
  const percentile = (p: number) =>
    latencies.length === 0
      ? 0
      : Math.round(latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)]!);
  return {
    sent: total,
    answered,
    errors,
    statusCodes,
    p50Ms: percentile(0.5),
    p99Ms: percentile(0.99),
  };
}
