import { spawn } from 'node:child_process';
import path from 'node:path';
import { executeCli, type CliCommand } from '../../src/cli/support.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command in this process, with its output captured instead of printed. */
export async function runCommand(
  command: CliCommand,
  args: string[],
  env: Record<string, string>,
): Promise<CliResult> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await executeCli(command, args, env, {
    info: (message) => stdout.push(message),
    error: (message) => stderr.push(message),
  });
  return { code, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
}

const apiDir = path.resolve(import.meta.dirname, '../..');

/** Runs a bin file (src/cli/<name>.ts) as its own process, the way the pnpm scripts do. */
export function runBin(name: string, args: string[], env: Record<string, string>) {
  return new Promise<CliResult>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', `src/cli/${name}.ts`, ...args],
      { cwd: apiDir, env: { PATH: process.env.PATH ?? '', ...env } },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
