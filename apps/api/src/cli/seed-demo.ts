// `pnpm seed:demo [--force]`: a demo team on the configured database, see demo-team.ts.
import { seedDemoCommand } from './demo-team.js';
import { runFromShell } from './support.js';

runFromShell(seedDemoCommand);
