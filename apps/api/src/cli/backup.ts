// `pnpm backup [FILE or FOLDER]`: a consistent copy of the SQLite database, see sqlite-backup.ts.
import { backupCommand } from './sqlite-backup.js';
import { runFromShell } from './support.js';

runFromShell(backupCommand);
