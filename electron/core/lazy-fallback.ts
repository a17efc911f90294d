// The fallback backend behind a lazy import: the page engine is the heaviest module after the SDK, so it loads
// on the first call that needs it instead of delaying the client's first tools/list.
import type { Executor } from '../../shared/protocol/operations.js';
import type { FallbackExecutor, FallbackOptions } from './fallback/fallback-executor.js';
import { type StatusReport, statusReport } from './mcp/status.js';

export interface LazyFallback {
  executor: Executor;
  status(): Promise<StatusReport>;
  /** Closes the browser if one was launched; never loads the engine just to close it. */
  close(): Promise<void>;
}

export function lazyFallback(options: FallbackOptions): LazyFallback {
  let loaded: Promise<FallbackExecutor> | undefined;
  const load = () => (loaded ??= import('./fallback/fallback-executor.js').then(({ FallbackExecutor }) => new FallbackExecutor(options)));
  return {
    executor: { run: async (op, args, ctx) => (await load()).run(op, args, ctx) },
    status: async () => statusReport(await (await load()).state()),
    close: async () => (await loaded)?.close(),
  };
}
