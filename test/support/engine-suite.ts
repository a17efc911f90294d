// What engine test files share: a fixture server and browser per file, a no-op operation context, and failure().
import { afterAll, beforeAll, expect } from 'vitest';
import { ToolError } from '../../shared/protocol/errors.js';
import type { OperationContext } from '../../shared/protocol/operations.js';
import { startTestBrowser, type TestBrowser } from './browser.js';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';

/** An operation context that drops progress messages. */
export const ctx: OperationContext = { progress: () => undefined };

/** Awaits a call that must fail, asserts it failed with a ToolError, and returns that for its code and text. */
export async function failure(promise: Promise<unknown>): Promise<ToolError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ToolError);
  return error as ToolError;
}

interface Closable {
  close(): Promise<void>;
}

export interface EngineSuite<B> {
  readonly server: FixtureServer;
  readonly browser: B;
}

export interface EngineSuiteOptions<B extends Closable> {
  startBrowser: () => Promise<B>;
  /** Start nothing: every test in the file is skipped, so there is nothing to serve or drive. */
  skip?: boolean;
}

/**
 * Starts the fixture server and a browser (headless unless `startBrowser` says otherwise) before the file's tests,
 * and closes whichever of them started after. Call it at the top of the file, before the file's own hooks: vitest
 * runs beforeAll hooks in order and afterAll hooks in reverse, so the file's own setup sees both running and its
 * teardown finishes before they close.
 */
export function useEngineSuite(): EngineSuite<TestBrowser>;
export function useEngineSuite<B extends Closable>(options: EngineSuiteOptions<B>): EngineSuite<B>;
export function useEngineSuite(options?: EngineSuiteOptions<Closable>): EngineSuite<Closable> {
  const { startBrowser = startTestBrowser, skip = false } = options ?? {};
  let server: FixtureServer | undefined;
  let browser: Closable | undefined;
  beforeAll(async () => {
    if (skip) return;
    server = await startFixtureServer();
    browser = await startBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  return {
    get server() {
      return running(server, 'fixture server');
    },
    get browser() {
      return running(browser, 'browser');
    },
  };
}

/** Fails loudly where module-level code reads the suite before beforeAll has started it. */
function running<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the ${what} starts in beforeAll: use it inside a hook or test`);
  return value;
}
