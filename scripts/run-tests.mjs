#!/usr/bin/env node
// `pnpm test`: runs every package's tests through Turborepo, then adds up the JSON reports each
// vitest run writes to .test-results/ and prints one plain closing line
// ("Tests: N passed, N failed, N skipped, N not applicable"; CI reads the line up to "skipped",
// so new counts go after it). Fails when turbo failed, when a package that has tests wrote no
// report, when any test failed or was skipped, or when no test ran at all.
//
// "Not applicable" is a test that does not apply to this pass (a SQLite-only test in the
// PostgreSQL pass, a Redis-only one with the in-memory store): the API tests declare those with
// onlyOn / onlyWhen (apps/api/test/helpers/only-on.ts), which skip them with vitest's runIf and,
// in that pass only, set `meta.notApplicable` to the reason. The JSON report keeps `meta`; a
// skipped test with that mark is counted apart and does not fail the run. Every other skip
// (it.skip, todo, .only elsewhere) has no mark and still fails it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = path.join(root, '.test-results');
/** Every vitest run that must report, by the name of its JSON file. */
const expectedReports = ['shared', 'api', 'web'];

/**
 * The browser tests drive Chromium at /usr/bin/chromium (or CHROMIUM_PATH). On a fresh Debian or
 * Ubuntu machine where this runs as root, install Debian's package first; anywhere else a missing
 * browser makes the browser tests fail with how to install it.
 */
function ensureChromium() {
  if (process.env.CHROMIUM_PATH || fs.existsSync('/usr/bin/chromium')) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !fs.existsSync('/usr/bin/apt-get')) return;
  console.log(
    'Chromium is missing: installing it for the browser tests (apt-get install chromium)',
  );
  const install = spawnSync(
    'sh',
    ['-c', 'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium'],
    { stdio: 'inherit' },
  );
  if (install.status !== 0)
    console.error('Installing Chromium failed: the browser tests will fail.');
}

ensureChromium();
fs.rmSync(resultsDir, { recursive: true, force: true });
// Two packages' tests at a time: the API suite (CPU-bound, its own workers) beside the browser
// tests (one file at a time, mostly waiting on a page), which were run one after the other. On
// two cores the pair takes the longer suite's time (12 min) rather than the sum (22).
const concurrency = process.argv.some((arg) => arg.startsWith('--concurrency'))
  ? []
  : ['--concurrency=2'];
// --continue: a suite that fails does not stop the one beside it, so every report is written.
const turbo = spawnSync(
  'turbo',
  ['run', 'test', '--continue', ...concurrency, ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  },
);

let passed = 0;
let failed = 0;
let skipped = 0;
let notApplicable = 0;
const problems = [];
/** What failed, by suite, file and test name, with the first line of its message. */
const failures = [];

/** A test skipped in this pass because it does not apply to it (see the comment at the top). */
const isNotApplicable = (test) =>
  test.status === 'skipped' &&
  typeof test.meta?.notApplicable === 'string' &&
  test.meta.notApplicable.length > 0;

/** The first non-empty line of a failure's messages, without colour codes, at most 300 characters. */
function firstLine(messages) {
  const text = (messages ?? []).filter(Boolean).join('\n');
  const line =
    stripVTControlCharacters(text)
      .split('\n')
      .find((l) => l.trim() !== '') ?? '';
  return line.trim().slice(0, 300);
}

console.log('\nTest summary');
for (const name of expectedReports) {
  const file = path.join(resultsDir, `${name}.json`);
  if (!fs.existsSync(file)) {
    problems.push(`${name}: no report was written (the suite did not run)`);
    continue;
  }
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  const p = report.numPassedTests ?? 0;
  // A test file that fails to load counts as a failure even though no test in it ran.
  const brokenFiles = (report.testResults ?? []).filter(
    (r) => r.status === 'failed' && (r.assertionResults ?? []).every((a) => a.status !== 'failed'),
  ).length;
  const f = (report.numFailedTests ?? 0) + brokenFiles;
  for (const file of report.testResults ?? []) {
    const where = path.relative(root, file.name ?? '');
    const failedTests = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const test of failedTests)
      failures.push(
        `${name}: ${where} > ${test.fullName ?? test.title}: ${firstLine(test.failureMessages)}`,
      );
    if (file.status === 'failed' && failedTests.length === 0)
      failures.push(`${name}: ${where} did not load: ${firstLine([file.message])}`);
  }
  const n = (report.testResults ?? [])
    .flatMap((r) => r.assertionResults ?? [])
    .filter(isNotApplicable).length;
  const s = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0) - n;
  console.log(`  ${name.padEnd(8)} ${p} passed, ${f} failed, ${s} skipped, ${n} not applicable`);
  passed += p;
  failed += f;
  skipped += s;
  notApplicable += n;
}
// The failures come last but one, so that the tail of a CI log names what broke.
if (failures.length > 0) {
  console.log('Failed tests');
  for (const failure of failures.slice(0, 20)) console.log(`  ${failure}`);
  if (failures.length > 20) console.log(`  ... and ${failures.length - 20} more`);
}
console.log(
  `Tests: ${passed} passed, ${failed} failed, ${skipped} skipped, ${notApplicable} not applicable`,
);
if (turbo.status !== 0) problems.push(`turbo run test exited with ${turbo.status}`);
if (passed === 0) problems.push('no test ran');
if (skipped > 0) problems.push(`${skipped} tests were skipped: every test must run`);
for (const problem of problems) console.error(`FAIL: ${problem}`);
process.exit(problems.length > 0 || failed > 0 ? 1 : 0);
