// The fallback backend behind a lazy import: the page engine is the heaviest module after the SDK, so it loads
// on the first call that needs it instead of delaying the client's first tools/list.
import type { AgentContext, Executor } from '../../shared/protocol/operations.js';
import type { FallbackExecutor, FallbackOptions, FallbackState } from './fallback/fallback-executor.js';
import { findBrowser } from './fallback/find-browser.js';

export interface LazyFallback {
  executor: Executor;
  /**
   * The browser's state, its current tab the agent's own (none: the one used last); before the engine loads, what
   * would be launched (no import just to answer status).
   */
  state(agent?: AgentContext): Promise<FallbackState>;
  /** Closes the browser if one was launched; never loads the engine just to close it. */
  close(): Promise<void>;
}

export function lazyFallback(options: FallbackOptions): LazyFallback {
  let loaded: Promise<FallbackExecutor> | undefined;
  const load = () =>
    (loaded ??= import('./fallback/fallback-executor.js').then(
      ({ FallbackExecutor }) => new FallbackExecutor(options),
    ));
  return {
    executor: { run: async (op, args, ctx) => (await load()).run(op, args, ctx) },
    state: async (agent) => {
      if (loaded) return (await loaded).state(agent);
      const { headless, profileDir, executablePath } = options;
      return {
        launched: false,
        executable: findBrowser(executablePath) ?? null,
        headless,
        profileDir,
        tabs: 0,
        currentTab: null,
      };
    },
    close: async () => (await loaded)?.close(),
  };
}
