import { afterEach, beforeEach, expect, vi, type MockInstance } from 'vitest';

/** A test fails when something calls console.error: an error nobody expected is a bug. */
let consoleError: MockInstance<typeof console.error>;

beforeEach(() => {
  consoleError = vi.spyOn(console, 'error');
});

afterEach(() => {
  const calls = consoleError.mock.calls;
  consoleError.mockRestore();
  expect(calls, 'unexpected console.error').toEqual([]);
});
