import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Folders the benchmarks and the load test read from and write to. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const apiDir = path.join(repoRoot, 'apps/api');
/** Git-ignored: JSON results and seeded databases. */
export const resultsDir = path.join(repoRoot, 'tools/bench/results');
