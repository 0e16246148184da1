// `pnpm restore FILE`: puts a backup in place of the SQLite database, see sqlite-backup.ts.
import { restoreCommand } from './sqlite-backup.js';
import { runFromShell } from './support.js';

runFromShell(restoreCommand);
