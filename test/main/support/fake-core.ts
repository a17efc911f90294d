// The core the app tests start in place of the app's own: the real core, as every test core runs, kept in a registry.
import { type Config, parseCli } from '../../../electron/core/config.js';
import type * as CoreModule from '../../../electron/core/core.js';
import type { Core, CoreOptions } from '../../../electron/core/core.js';

/** Every core the app started in this test file, with the config and options the app gave it. */
export const cores: { config: Config; options: CoreOptions; core: Core }[] = [];

/**
 * The core module with startCore swapped. The app's own config is the one the person gets: `auto` on the fixed bridge
 * port the extension dials. A test core must not take that port (or a real extension on this machine), so it runs as
 * every test core does: fallback only, port 0. vi.mock is hoisted above each test file's imports, so its factory
 * imports this module itself: `async (original) => (await import('./support/fake-core.js')).mockCore(original)`.
 */
export async function mockCore(original: <T>() => Promise<T>): Promise<typeof CoreModule> {
  const real = await original<typeof CoreModule>();
  return {
    ...real,
    startCore: async (config: Config, log: (line: string) => void, options: CoreOptions = {}) => {
      const outcome = parseCli(['--browser', 'fallback', '--headless', '--port', '0', '--data-dir', config.dataDir]);
      if (outcome.kind !== 'run') throw new Error('bad test flags');
      const core = await real.startCore(outcome.config, log, options);
      cores.push({ config, options, core });
      return core;
    },
  };
}
