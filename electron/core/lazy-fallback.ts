// The fallback backend behind a lazy import: the page engine is the heaviest module after the SDK, so it loads
// on the first call that needs it (or on `warm`) instead of delaying the client's first tools/list.
import type { AgentContext, Executor } from '../../shared/protocol/operations.js';
import type * as FallbackModule from './fallback/fallback-executor.js';
import type { FallbackExecutor, FallbackOptions, FallbackState } from './fallback/fallback-executor.js';
import { findBrowser } from './fallback/find-browser.js';
import type { LaunchedBrowser } from './fallback/launch.js';

export interface LazyFallback {
  executor: Executor;
  /**
   * The browser's state, its current tab the agent's own (none: the one used last); before the engine loads, what
   * would be launched (no import just to answer status).
   */
  state(agent?: AgentContext): Promise<FallbackState>;
  /** Closes the browser if one was launched; never loads the engine just to close it. */
  close(): Promise<void>;
  /**
   * Loads the engine and, headless, launches the browser now, ahead of the first call, for a core that knows this
   * fallback will serve it: the first call finds both ready or under way. Absent: all waits for the first call.
   */
  warm?(): void;
}

export function lazyFallback(options: FallbackOptions): LazyFallback {
  let engine: Promise<typeof FallbackModule> | undefined;
  const engineModule = () => (engine ??= import('./fallback/fallback-executor.js'));
  let loaded: Promise<FallbackExecutor> | undefined;
  const load = () => {
    if (loaded) return loaded;
    // The browser starts while the engine loads: a separate process, so both take the first call's wait at once
    // instead of one after the other (measured on a busy 2-core box: import 1.5 to 3 s, launch about 1.5 s).
    const browser: Promise<LaunchedBrowser> = import('./fallback/launch.js').then(({ launchBrowser }) =>
      launchBrowser(options),
    );
    // Its failure is the first call's answer (the executor awaits it); until then it must not count as unhandled.
    browser.catch(() => undefined);
    loaded = engineModule().then(({ FallbackExecutor }) => new FallbackExecutor(options, browser));
    return loaded;
  };
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
    // A headed browser would open a window before anything asked for one: only the engine loads ahead then.
    warm: () => void (options.headless ? load() : engineModule()).catch(() => undefined),
  };
}
