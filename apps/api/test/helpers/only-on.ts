import {
  describe,
  it,
  type SuiteFactory,
  type SuiteOptions,
  type TestFunction,
  type TestOptions,
} from 'vitest';
import { ENGINE } from './test-app.js';

/**
 * Tests that apply to one engine (or one configuration) only.
 *
 * `onlyOn('sqlite').it(name, fn)` is vitest's `it.runIf(ENGINE === 'sqlite')(name, fn)`, and
 * `.describe` is `describe.runIf`: the pass the test does not apply to reports it as skipped,
 * rather than dropping it without a word. In that pass, and only there, the test (or every test
 * of the suite) also carries `meta.notApplicable`, the reason in words. Vitest's JSON report
 * keeps each test's `meta`, and scripts/run-tests.mjs counts a skipped test that has it as "not
 * applicable" instead of skipped. Anything else that skips a test (`it.skip`, `.todo`, a stray
 * `.only`, a `runIf` written by hand) leaves no such mark, so it still fails `pnpm test`; and
 * the pass where the test applies carries no mark either, so skipping it there fails too.
 */
export function onlyOn(engine: 'sqlite' | 'postgres', why = `${engine} only`): OnlyWhen {
  return onlyWhen(ENGINE === engine, `${why} (this is the ${ENGINE} pass)`);
}

/** Like {@link onlyOn}, for any other condition, e.g. which rate-limit store a suite uses. */
export function onlyWhen(applies: boolean, why: string): OnlyWhen {
  const mark = <T extends TestOptions>(options: T): T =>
    applies ? options : { ...options, meta: { ...options.meta, notApplicable: why } };
  return {
    it(name: string, optionsOrFn: TestOptions | TestFunction, fnOrTimeout?: TestFunction | number) {
      if (typeof optionsOrFn !== 'function') {
        it.runIf(applies)(name, mark(optionsOrFn), fnOrTimeout as TestFunction);
      } else {
        const timeout = typeof fnOrTimeout === 'number' ? { timeout: fnOrTimeout } : {};
        it.runIf(applies)(name, mark(timeout), optionsOrFn);
      }
    },
    describe(name: string, optionsOrFn: SuiteOptions | SuiteFactory, fn?: SuiteFactory) {
      if (typeof optionsOrFn === 'function') describe.runIf(applies)(name, mark({}), optionsOrFn);
      else describe.runIf(applies)(name, mark(optionsOrFn), fn);
    },
  } as OnlyWhen;
}

export interface OnlyWhen {
  it(name: string, fn: TestFunction, timeout?: number): void;
  it(name: string, options: TestOptions, fn: TestFunction): void;
  describe(name: string, factory: SuiteFactory): void;
  describe(name: string, options: SuiteOptions, factory: SuiteFactory): void;
}

declare module 'vitest' {
  interface TaskMeta {
    /** Set only where a test does not apply (see onlyWhen): why; read by scripts/run-tests.mjs. */
    notApplicable?: string;
  }
}
