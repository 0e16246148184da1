import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { prepareDatabase, startBenchApi, type BenchEngine } from './bench-database.js';
import { machine, markdownTable, sourceVersion } from './bench-report.js';
import { LOAD_ADMIN_EMAIL, LOAD_PASSWORD } from './bench-scenarios.js';
import { repoRoot, resultsDir } from './paths.js';
import { requireBuiltApi } from './server.js';

const USAGE = `Usage: pnpm bench:web [--runs 5] [--tasks 100000] [--users 1000] [--latency 0] [--throttled-only]

Measures the built web app (apps/web/dist), served by the built API on a database seeded by
pnpm seed:load (SQLite in tools/bench/results, or PostgreSQL when DATABASE_URL is set), in
headless Chromium (CHROMIUM_PATH, default /usr/bin/chromium). Each page load is a first visit:
a fresh browser context with an empty cache, after one unmeasured warm-up load. Then it scrolls
/admin/tasks through 10,000 tasks and reports the frames.

--latency MS adds that many milliseconds to every request of the measured page loads (Chromium's
network emulation), as a server across a network would: loopback hides every round trip.

Then the slow-link run: the admin dashboard over 1.6 Mbit/s down, 750 kbit/s up and 150 ms of
round trip (Chromium's network emulation), cold (empty cache) and warm (a second visit in the same
browser), reporting the bytes on the wire and the time until the dashboard is usable (its charts
drawn); once as the browser asks (brotli, gzip) and once asking for no compression, as the app was
served before. --throttled-only runs just that part.`;

/** The member whose task details page is ticked (seed:load's member1@load.test). */
const MEMBER_EMAIL = 'member1@load.test';
const webIndexHtml = path.join(repoRoot, 'apps/web/dist/index.html');
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

const BUDGETS = {
  dashboardDrawnMs: 1000,
  /** A first visit to the dashboard over the slow link below, cache empty. */
  slowLinkColdMs: 2000,
  tickVisibleMs: 50,
  loginJsKB: 131,
};

interface Options {
  runs: number;
  tasks: number;
  users: number;
  latencyMs: number;
  throttledOnly: boolean;
}

function parseOptions(): Options {
  const { values } = parseArgs({
    args: process.argv.slice(2).filter((arg) => arg !== '--'),
    options: {
      runs: { type: 'string', default: '5' },
      tasks: { type: 'string', default: '100000' },
      users: { type: 'string', default: '1000' },
      latency: { type: 'string', default: '0' },
      'throttled-only': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const number = (name: string, value: string, least = 1) => {
    if (!/^\d+$/.test(value) || Number(value) < least) {
      console.error(`--${name} must be a whole number of at least ${least}, not "${value}".`);
      process.exit(2);
    }
    return Number(value);
  };
  return {
    runs: number('runs', values.runs),
    tasks: number('tasks', values.tasks),
    users: number('users', values.users),
    latencyMs: number('latency', values.latency, 0),
    throttledOnly: values['throttled-only'],
  };
}

/** Stops with a clear message when something this measures has not been built. */
function requireBuilt(): void {
  requireBuiltApi();
  if (!fs.existsSync(webIndexHtml)) {
    console.error(
      `The web app is not built: ${path.relative(process.cwd(), webIndexHtml)} is missing.`,
    );
    console.error('Run `pnpm build` first, then run this again.');
    process.exit(2);
  }
  if (!fs.existsSync(chromiumPath)) {
    console.error(`Chromium was not found at ${chromiumPath}: install it or set CHROMIUM_PATH.`);
    process.exit(2);
  }
}

const log = (line: string) => console.log(line);

/** The role of each token's owner, as the sign-in answered. */
const roleOfToken = new Map<string, string>();

async function signIn(url: string, email: string): Promise<string> {
  const res = await fetch(new URL('/api/auth/login', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: LOAD_PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in as ${email}: ${res.status} ${await res.text()}`);
  const { token, role } = (await res.json()) as { token: string; role: string };
  roleOfToken.set(token, role);
  return token;
}

/**
 * What the app keeps in localStorage once someone has signed in on this browser (the token, and
 * the role it opens that person's dashboard with): a returning visitor with an empty cache.
 */
function signedInState(baseURL: string, token: string) {
  return {
    cookies: [],
    origins: [
      {
        origin: baseURL,
        localStorage: [
          { name: 'token', value: token },
          { name: 'role', value: roleOfToken.get(token) ?? '' },
        ],
      },
    ],
  };
}

/** A task of the member's with checklist items, for the tick. */
async function memberTaskWithChecklist(url: string, token: string): Promise<string> {
  const res = await fetch(new URL('/api/tasks', url), {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!res.ok) throw new Error(`GET /api/tasks as the member: ${res.status}`);
  const { tasks } = (await res.json()) as {
    tasks: Array<{ _id: string; todoChecklist: unknown[] }>;
  };
  const task = tasks.find((candidate) => candidate.todoChecklist.length > 0);
  if (!task) throw new Error(`${MEMBER_EMAIL} has no task with checklist items to tick`);
  return task._id;
}

/**
 * A fresh browser context (empty cache, the benchmark's window size), signed in by storing
 * `token` where the app keeps it, or signed out.
 */
function freshContext(browser: Browser, baseURL: string, token: string | null) {
  return browser.newContext({
    baseURL,
    viewport: { width: 1280, height: 900 },
    storageState: token ? signedInState(baseURL, token) : undefined,
  });
}

interface PageLoad {
  /** From navigation start to the moment `drawn` first held, at an animation frame. */
  ms: number;
  /** Scripts and stylesheets fetched until the network went quiet, each gzipped (a proxy gzips). */
  jsGzipBytes: number;
  cssGzipBytes: number;
}

/**
 * A first visit to `pagePath` in a fresh context (empty cache) signed in with `token`, timed
 * in the page: performance.now() counts from navigation start.
 */
async function loadPage(
  browser: Browser,
  baseURL: string,
  pagePath: string,
  token: string | null,
  drawn: () => number | false,
  latencyMs: number,
): Promise<PageLoad> {
  const context = await freshContext(browser, baseURL, token);
  try {
    const page = await context.newPage();
    if (latencyMs > 0) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: latencyMs,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });
    }
    const sizes: Array<Promise<{ type: string; bytes: number } | null>> = [];
    page.on('response', (response) => {
      const type = response.request().resourceType();
      if (type !== 'script' && type !== 'stylesheet') return;
      sizes.push(
        response.body().then(
          (body) => ({ type, bytes: gzipSync(body).length }),
          () => null,
        ),
      );
    });
    await page.goto(pagePath, { waitUntil: 'commit' });
    const at = await page.waitForFunction(drawn, undefined, { polling: 'raf', timeout: 60_000 });
    const ms = (await at.jsonValue()) as number;
    await page.waitForLoadState('networkidle');
    const loaded = (await Promise.all(sizes)).filter((size) => size !== null);
    const total = (type: string) =>
      loaded.filter((size) => size.type === type).reduce((sum, size) => sum + size.bytes, 0);
    return { ms, jsGzipBytes: total('script'), cssGzipBytes: total('stylesheet') };
  } finally {
    await context.close();
  }
}

// These run in the page (serialised by Playwright): they answer performance.now() once drawn.
const loginFormDrawn = () =>
  document.querySelector('form button[type="submit"]') !== null && performance.now();
/** Both dashboard charts have SVG shapes: the status donut's sectors and the priority bars. */
const dashboardChartsDrawn = () =>
  document.querySelector('path.recharts-sector') !== null &&
  document.querySelector('path.recharts-rectangle') !== null &&
  performance.now();
/** A task card is a link named by its title, inside the page's main area. */
const firstTaskCardDrawn = () =>
  document.querySelector('main a[aria-labelledby]') !== null && performance.now();

declare global {
  interface Window {
    benchTick?: Promise<number>;
  }
}

/**
 * Arms a timer on the first checklist item: from the click's own timestamp to the animation frame
 * after the app has re-rendered the item in its new state (the box and the struck-through text).
 */
function armTickTimer() {
  const box = document.querySelector<HTMLInputElement>('main input[type="checkbox"]')!;
  const label = box.closest('label')!;
  const text = box.nextElementSibling!;
  const wasDone = box.checked;
  window.benchTick = new Promise<number>((resolve) => {
    let clickedAt: number | undefined;
    box.addEventListener('click', (event) => (clickedAt = event.timeStamp), {
      once: true,
      capture: true,
    });
    const observer = new MutationObserver(() => {
      const shown = box.checked !== wasDone && text.classList.contains('line-through') !== wasDone;
      if (!shown || clickedAt === undefined) return;
      observer.disconnect();
      const from = clickedAt;
      requestAnimationFrame((frame) => resolve(frame - from));
    });
    observer.observe(label, { subtree: true, attributes: true, childList: true });
  });
}

/** Ticks (then unticks, and so on) the first item `runs` times; leaves it as it found it. */
async function measureTicks(
  browser: Browser,
  baseURL: string,
  token: string,
  taskId: string,
  runs: number,
): Promise<number[]> {
  const context = await freshContext(browser, baseURL, token);
  try {
    const page = await context.newPage();
    await page.goto(`/user/task-details/${taskId}`);
    const box = page.locator('main input[type="checkbox"]').first();
    await box.waitFor();
    await page.waitForLoadState('networkidle');
    const samples: number[] = [];
    // One unmeasured tick first (warm-up), then `runs` measured ones; an even total restores it.
    const clicks = runs + 1 + ((runs + 1) % 2);
    for (let n = 0; n < clicks; n++) {
      await page.evaluate(armTickTimer);
      const saved = savedAndRefetched(page, taskId);
      await box.click();
      const ms = await page.evaluate(() => window.benchTick!);
      if (n > 0 && samples.length < runs) samples.push(ms);
      // The next tick waits until this one is saved and the task fetched again (300 ms later).
      await saved;
    }
    return samples;
  } finally {
    await context.close();
  }
}

async function savedAndRefetched(page: Page, taskId: string) {
  const taskPath = `/api/tasks/${taskId}`;
  await page.waitForResponse(
    (res) => res.request().method() === 'PATCH' && new URL(res.url()).pathname.startsWith(taskPath),
  );
  await page.waitForResponse(
    (res) => res.request().method() === 'GET' && new URL(res.url()).pathname === taskPath,
  );
}

/** How far the scroll measure goes down /admin/tasks: the "10,000 tasks in a tab". */
const SCROLL_TASKS = 10_000;
/** Pixels scrolled per frame: a fast, steady fling (about 60,000 px/s at 60 frames a second). */
const SCROLL_STEP_PX = 1000;
/** The scroll measure gives up after this long. */
const SCROLL_LIMIT_MS = 5 * 60_000;

interface ScrollRun {
  /** From the first scrolled frame to the frame where card SCROLL_TASKS was on the page. */
  ms: number;
  /** Every frame's interval while scrolling, pages loading included. */
  frames: number[];
  /** The most task cards in the page at one time. */
  maxCards: number;
  reached: boolean;
}

/**
 * Scrolls /admin/tasks (All) down by SCROLL_STEP_PX every animation frame until the card at
 * position SCROLL_TASKS is in the page, the next pages loading as it goes. A frame that takes
 * long is one the person sees stutter; the card count shows what virtualisation keeps.
 */
async function measureScroll(browser: Browser, baseURL: string, token: string): Promise<ScrollRun> {
  const context = await freshContext(browser, baseURL, token);
  try {
    const page = await context.newPage();
    await page.goto('/admin/tasks');
    await page.locator('main [role="listitem"]').first().waitFor();
    await page.waitForLoadState('networkidle');
    return await page.evaluate(
      ({ target, step, limitMs }) =>
        new Promise<ScrollRun>((resolve) => {
          const frames: number[] = [];
          let maxCards = 0;
          let start = 0;
          let last = 0;
          // A method, not a named const: tsx wraps named inner functions in a helper (__name)
          // that does not exist in the page.
          const loop = {
            frame(now: number) {
              if (start === 0) start = last = now;
              else frames.push(now - last);
              last = now;
              const cards = document.querySelectorAll('main [role="listitem"]');
              maxCards = Math.max(maxCards, cards.length);
              const furthest = Number(cards[cards.length - 1]?.getAttribute('aria-posinset') ?? 0);
              if (furthest >= target || now - start > limitMs) {
                resolve({ ms: now - start, frames, maxCards, reached: furthest >= target });
                return;
              }
              window.scrollBy(0, step);
              requestAnimationFrame((time) => loop.frame(time));
            },
          };
          requestAnimationFrame((time) => loop.frame(time));
        }),
      { target: SCROLL_TASKS, step: SCROLL_STEP_PX, limitMs: SCROLL_LIMIT_MS },
    );
  } finally {
    await context.close();
  }
}

/**
 * The slow link of the issue: a phone on a poor mobile connection. Chromium's throughputs are in
 * bytes per second.
 */
const SLOW_LINK = {
  offline: false,
  latency: 150,
  downloadThroughput: (1_600_000 / 8) * 1,
  uploadThroughput: 750_000 / 8,
};

interface SlowLoad {
  /** Navigation start → the dashboard's charts drawn. */
  ms: number;
  /** What crossed the network: headers and bodies as sent (compressed or not). */
  wireBytes: number;
  /** The same bodies once decoded: what the page received. */
  decodedBytes: number;
  requests: number;
  /** Requests answered from the browser's cache, with no byte on the wire. */
  fromCache: number;
}

/** One visit to the dashboard in `page`, over the slow link, counted through the DevTools protocol. */
async function slowDashboardLoad(page: Page): Promise<SlowLoad> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW_LINK);
  const load: SlowLoad = { ms: 0, wireBytes: 0, decodedBytes: 0, requests: 0, fromCache: 0 };
  cdp.on('Network.requestWillBeSent', () => load.requests++);
  cdp.on('Network.requestServedFromCache', () => load.fromCache++);
  cdp.on('Network.dataReceived', (event) => (load.decodedBytes += event.dataLength));
  cdp.on('Network.loadingFinished', (event) => (load.wireBytes += event.encodedDataLength));
  await page.goto('/admin/dashboard', { waitUntil: 'commit' });
  const at = await page.waitForFunction(dashboardChartsDrawn, undefined, {
    polling: 'raf',
    timeout: 120_000,
  });
  load.ms = (await at.jsonValue()) as number;
  await page.waitForLoadState('networkidle');
  await cdp.detach();
  return load;
}

interface SlowLinkRuns {
  cold: SlowLoad[];
  warm: SlowLoad[];
}

/**
 * `runs` first visits to the dashboard over the slow link (a fresh context each: empty cache),
 * each followed by a second visit in the same context (a new tab: the cache kept, the app's
 * hashed files not even revalidated). `compressed` false asks for no compression
 * (Accept-Encoding: identity), as the server answered before it compressed anything.
 */
async function measureSlowLink(
  browser: Browser,
  baseURL: string,
  token: string,
  runs: number,
  compressed: boolean,
): Promise<SlowLinkRuns> {
  const result: SlowLinkRuns = { cold: [], warm: [] };
  for (let n = 0; n <= runs; n++) {
    const context = await browser.newContext({
      baseURL,
      viewport: { width: 1280, height: 900 },
      extraHTTPHeaders: compressed ? {} : { 'Accept-Encoding': 'identity' },
      storageState: signedInState(baseURL, token),
    });
    try {
      const cold = await slowDashboardLoad(await context.newPage());
      const warm = await slowDashboardLoad(await context.newPage());
      // The first pair warms the server up and is not counted.
      if (n > 0) {
        result.cold.push(cold);
        result.warm.push(warm);
      }
    } finally {
      await context.close();
    }
  }
  return result;
}

/** The value below which `share` of the samples fall (nearest rank). */
function percentile(samples: number[], share: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? 0;
}

interface Series {
  samples: number[];
  median: number;
  max: number;
}

function series(samples: number[]): Series {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { samples, median, max: sorted[sorted.length - 1]! };
}

async function repeat(runs: number, load: () => Promise<PageLoad>) {
  await load(); // warm-up: the server's caches and JIT, not the browser's (every run starts empty)
  const loads: PageLoad[] = [];
  for (let n = 0; n < runs; n++) loads.push(await load());
  return {
    ms: series(loads.map((l) => l.ms)),
    jsKB: series(loads.map((l) => l.jsGzipBytes / 1024)),
    cssKB: series(loads.map((l) => l.cssGzipBytes / 1024)),
  };
}

async function main() {
  const options = parseOptions();
  requireBuilt();
  const postgresUrl = process.env.DATABASE_URL;
  const engine: BenchEngine = postgresUrl ? 'postgres' : 'sqlite';
  const startedAt = new Date();
  const machineBefore = machine();
  log(
    `Machine: ${machineBefore.cpu}, ${machineBefore.cores} cores, Node ${machineBefore.node}; ` +
      `load average ${machineBefore.loadAverage.toFixed(2)}`,
  );
  if (machineBefore.loadAverage > machineBefore.cores) {
    log(
      `Warning: other processes keep ${machineBefore.loadAverage.toFixed(1)} cores busy on ` +
        'average; the browser and the server share what is left, so every time below is longer.',
    );
  }
  fs.mkdirSync(resultsDir, { recursive: true });
  const database = await prepareDatabase(
    engine,
    { tasks: options.tasks, users: options.users },
    postgresUrl,
    log,
  );
  const server = await startBenchApi(database);
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  let results;
  try {
    const url = server.url;
    const [adminToken, memberToken] = await Promise.all([
      signIn(url, LOAD_ADMIN_EMAIL),
      signIn(url, MEMBER_EMAIL),
    ]);
    const taskId = await memberTaskWithChecklist(url, memberToken);
    const runs = options.runs;
    const slowLink = async () => {
      process.stdout.write(`/admin/dashboard over 1.6 Mbit/s and 150 ms, ${runs} cold + warm…`);
      const compressed = await measureSlowLink(browser, url, adminToken, runs, true);
      const plain = await measureSlowLink(browser, url, adminToken, runs, false);
      log(` cold ${series(compressed.cold.map((l) => l.ms)).median.toFixed(0)} ms (median)`);
      return { compressed, plain };
    };
    if (options.throttledOnly) {
      results = { slow: await slowLink() };
      return;
    }
    process.stdout.write(`/login, ${runs} cold loads…`);
    const login = await repeat(runs, () =>
      loadPage(browser, url, '/login', null, loginFormDrawn, options.latencyMs),
    );
    log(` form drawn at ${login.ms.median.toFixed(0)} ms (median)`);
    process.stdout.write(`/admin/dashboard, ${runs} cold loads…`);
    const dashboard = await repeat(runs, () =>
      loadPage(
        browser,
        url,
        '/admin/dashboard',
        adminToken,
        dashboardChartsDrawn,
        options.latencyMs,
      ),
    );
    log(` charts drawn at ${dashboard.ms.median.toFixed(0)} ms (median)`);
    process.stdout.write(`/admin/tasks, ${runs} cold loads…`);
    const tasks = await repeat(runs, () =>
      loadPage(browser, url, '/admin/tasks', adminToken, firstTaskCardDrawn, options.latencyMs),
    );
    log(` first cards at ${tasks.ms.median.toFixed(0)} ms (median)`);
    process.stdout.write(`Checklist ticks, ${runs}…`);
    const tick = series(await measureTicks(browser, url, memberToken, taskId, runs));
    log(` visible after ${tick.median.toFixed(1)} ms (median)`);
    process.stdout.write(`/admin/tasks, scrolling to task ${SCROLL_TASKS.toLocaleString('en')}…`);
    const scroll = await measureScroll(browser, url, adminToken);
    log(
      scroll.reached
        ? ` in ${(scroll.ms / 1000).toFixed(1)} s`
        : ` not reached in ${SCROLL_LIMIT_MS / 60_000} minutes`,
    );
    results = { login, dashboard, tasks, tick, scroll, slow: await slowLink() };
  } finally {
    await browser.close();
    await server.stop();
    if (results) report(options, engine, startedAt, machineBefore, results);
  }
}

type SlowResults = { compressed: SlowLinkRuns; plain: SlowLinkRuns };

/** The slow-link figures: per cache state and encoding, the median and slowest of the runs. */
function slowLinkTable(slow: SlowResults) {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const rows = [];
  for (const [encoding, runs] of [
    ['br/gzip', slow.compressed],
    ['none', slow.plain],
  ] as const) {
    for (const cache of ['cold', 'warm'] as const) {
      const loads = runs[cache];
      const ms = series(loads.map((l) => l.ms));
      const limit = cache === 'cold' && encoding === 'br/gzip' ? BUDGETS.slowLinkColdMs : undefined;
      rows.push({
        visit: `${cache}, compression ${encoding}`,
        'usable (median)': `${ms.median.toFixed(0)} ms`,
        'usable (slowest)': `${ms.max.toFixed(0)} ms`,
        'on the wire': kb(series(loads.map((l) => l.wireBytes)).median),
        decoded: kb(series(loads.map((l) => l.decodedBytes)).median),
        requests: `${loads[0]?.requests ?? 0} (${loads[0]?.fromCache ?? 0} from cache)`,
        budget: limit === undefined ? '' : `< ${limit} ms`,
        result: limit === undefined ? '' : ms.max < limit ? 'pass' : 'MISS',
        max: ms.max,
        limit,
      });
    }
  }
  return rows;
}

type Results = {
  login?: Awaited<ReturnType<typeof repeat>>;
  dashboard?: Awaited<ReturnType<typeof repeat>>;
  tasks?: Awaited<ReturnType<typeof repeat>>;
  tick?: Series;
  scroll?: ScrollRun;
  slow: SlowResults;
};

function report(
  options: Options,
  engine: BenchEngine,
  startedAt: Date,
  machineBefore: ReturnType<typeof machine>,
  results: Results,
) {
  const slowRows = slowLinkTable(results.slow);
  const slowTable = slowRows.map(({ max: _max, limit: _limit, ...row }) => row);
  const slowBudgets = slowRows
    .filter((row) => row.limit !== undefined)
    .map((row) => ({
      measure: `/admin/dashboard usable over 1.6 Mbit/s, 150 ms (${row.visit})`,
      limit: row.limit!,
      max: row.max,
      pass: row.max < row.limit!,
    }));
  const printSlow = () => {
    log(
      '\n/admin/dashboard over 1.6 Mbit/s down, 750 kbit/s up, 150 ms round trip ' +
        `(${options.runs} runs each; usable = both charts drawn):`,
    );
    console.table(slowTable);
  };
  if (!results.login || !results.dashboard || !results.tasks || !results.tick || !results.scroll) {
    printSlow();
    writeReport(options, engine, startedAt, machineBefore, {
      results: { slowLink: results.slow },
      budgets: slowBudgets,
      markdown: markdownTable(slowTable),
    });
    return;
  }
  const { login, dashboard, tasks, tick, scroll } = results;
  const ms = (value: number) => `${value.toFixed(value < 100 ? 1 : 0)} ms`;
  const kb = (value: number) => `${value.toFixed(1)} KB`;
  // A budget is met when every run met it: the max, not the median, is compared.
  const rows = [
    {
      measure: '/admin/dashboard: charts drawn',
      s: dashboard.ms,
      f: ms,
      limit: BUDGETS.dashboardDrawnMs,
      unit: ' ms',
    },
    { measure: '/admin/tasks: first task cards', s: tasks.ms, f: ms },
    { measure: '/login: form drawn', s: login.ms, f: ms },
    {
      measure: 'checklist click → tick visible',
      s: tick,
      f: ms,
      limit: BUDGETS.tickVisibleMs,
      unit: ' ms',
    },
    { measure: '/login JS (gzip)', s: login.jsKB, f: kb, limit: BUDGETS.loginJsKB, unit: ' KB' },
    { measure: '/login CSS (gzip)', s: login.cssKB, f: kb },
    { measure: '/admin/dashboard JS (gzip)', s: dashboard.jsKB, f: kb },
    { measure: '/admin/dashboard CSS (gzip)', s: dashboard.cssKB, f: kb },
  ];
  const table = rows.map((row) => ({
    measure: row.measure,
    median: row.f(row.s.median),
    max: row.f(row.s.max),
    budget: row.limit === undefined ? '' : `< ${row.limit}${row.unit}`,
    result: row.limit === undefined ? '' : row.s.max < row.limit ? 'pass' : 'MISS',
  }));
  const machineAfter = machine();
  log(
    `\n${engine}, ${options.tasks.toLocaleString('en')} tasks, ${options.users} members, ` +
      `${options.runs} runs each (cold browser cache)` +
      (options.latencyMs > 0
        ? `, ${options.latencyMs} ms added to each request of a page load:`
        : ':'),
  );
  console.table(table);
  const scrollFigures = {
    'tasks scrolled through': scroll.reached ? SCROLL_TASKS : 'not reached',
    'time (s)': Number((scroll.ms / 1000).toFixed(1)),
    frames: scroll.frames.length,
    'frame p50 / p95 / p99 / max (ms)': [0.5, 0.95, 0.99, 1]
      .map((share) => percentile(scroll.frames, share).toFixed(1))
      .join(' / '),
    'frames over 50 ms': scroll.frames.filter((frame) => frame > 50).length,
    'most cards in the page at once': scroll.maxCards,
  };
  log(`\nScrolling /admin/tasks (All) by ${SCROLL_STEP_PX} px a frame, pages loading as it goes:`);
  console.table(scrollFigures);
  printSlow();
  log(
    `Load average ${machineBefore.loadAverage.toFixed(2)} before, ${machineAfter.loadAverage.toFixed(2)} after.`,
  );

  const budgets = [
    ...rows
      .filter((row) => row.limit !== undefined)
      .map((row) => ({
        measure: row.measure,
        limit: row.limit!,
        max: row.s.max,
        pass: row.s.max < row.limit!,
      })),
    ...slowBudgets,
  ];
  writeReport(options, engine, startedAt, machineBefore, {
    results: {
      loginFormDrawnMs: login.ms,
      loginJsGzipKB: login.jsKB,
      loginCssGzipKB: login.cssKB,
      dashboardChartsDrawnMs: dashboard.ms,
      dashboardJsGzipKB: dashboard.jsKB,
      dashboardCssGzipKB: dashboard.cssKB,
      firstTaskCardsMs: tasks.ms,
      tickVisibleMs: tick,
      scroll: { ...scrollFigures, stepPx: SCROLL_STEP_PX, frameMs: scroll.frames },
      slowLink: results.slow,
    },
    budgets,
    markdown: `${markdownTable(table)}\n\n${markdownTable(slowTable)}`,
  });
}

function writeReport(
  options: Options,
  engine: BenchEngine,
  startedAt: Date,
  machineBefore: ReturnType<typeof machine>,
  body: {
    results: Record<string, unknown>;
    budgets: Array<{ measure: string; limit: number; max: number; pass: boolean }>;
    markdown: string;
  },
) {
  const machineAfter = machine();
  const file = path.join(
    resultsDir,
    `bench-web-${startedAt.toISOString().replaceAll(':', '-').replace(/\..+/, '')}.json`,
  );
  const report = {
    startedAt: startedAt.toISOString(),
    engine,
    source: sourceVersion(),
    machine: { ...machineBefore, loadAverageAfter: machineAfter.loadAverage },
    options,
    ...body,
  };
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  log(`\nWritten to ${path.relative(process.cwd(), file)}`);
  const misses = body.budgets.filter((budget) => !budget.pass).length;
  log(misses === 0 ? 'Every budget met.' : `${misses} budget(s) missed.`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
