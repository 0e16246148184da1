import path from 'node:path';
import { ConfigError, parseEnv, type Env } from '../config.js';

/** Where a command writes: the console when run from a shell, a buffer in tests. */
export interface CliOutput {
  info(message: string): void;
  error(message: string): void;
}

/** A refusal or a mistake of the caller: its message says everything, the exit code is 1. */
export class CliError extends Error {
  override name = 'CliError';
}

export type CliCommand = (args: string[], env: NodeJS.ProcessEnv, out: CliOutput) => Promise<void>;

/** Runs a command and answers its exit code: 0, or 1 after printing why. */
export async function executeCli(
  command: CliCommand,
  args: string[],
  env: NodeJS.ProcessEnv,
  out: CliOutput,
): Promise<number> {
  try {
    // `pnpm seed:demo -- --force` hands the script a literal "--" first.
    await command(args[0] === '--' ? args.slice(1) : args, env, out);
    return 0;
  } catch (error) {
    if (error instanceof CliError || error instanceof ConfigError) out.error(error.message);
    else out.error(`Failed: ${error instanceof Error ? (error.stack ?? error.message) : error}`);
    return 1;
  }
}

/** The entry point of a bin file: real arguments, environment and console. */
export function runFromShell(command: CliCommand): void {
  const out: CliOutput = {
    info: (message) => console.log(message),
    error: (message) => console.error(message),
  };
  void executeCli(command, process.argv.slice(2), process.env, out).then((code) => {
    process.exitCode = code;
  });
}

/**
 * The server's configuration, read by the same rules, except that JWT_SECRET is not required in
 * production: these commands sign no tokens, and a restore may run in a container of its own.
 */
export function parseCliEnv(env: NodeJS.ProcessEnv): Readonly<Env> {
  return parseEnv({ ...env, NODE_ENV: undefined });
}

/**
 * A path the user typed: relative to where they typed it. pnpm runs package scripts inside the
 * package folder and passes the folder the command was started from as INIT_CWD.
 */
export function resolveUserPath(file: string, env: NodeJS.ProcessEnv): string {
  return path.resolve(env.INIT_CWD ?? process.cwd(), file);
}
