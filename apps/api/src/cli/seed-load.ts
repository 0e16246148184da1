// `pnpm seed:load [--tasks N] [--users M] [--seed S] [--force]`: load-test data, see load-data.ts.
import { seedLoadCommand } from './load-data.js';
import { runFromShell } from './support.js';

runFromShell(seedLoadCommand);
