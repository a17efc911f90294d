// Electron's own Chromium as the core's fallback backend: the page engine over the app's browser windows, made on the
// first call that needs it, with one blank tab to adopt (as a launched browser has).
import { randomInt } from 'node:crypto';
import { createEngineExecutor, type EngineExecutor } from '../../../shared/engine/executor.js';
import { letGoNote } from '../../../shared/engine/egress-report.js';
import { PolicyGate } from '../../../shared/engine/policy-gate.js';
import { personStopMessage } from '../../../shared/engine/presence.js';
import type { FallbackDeps } from '../../core/core.js';
import type { LazyFallback } from '../../core/lazy-fallback.js';
import { fallbackSession, lockDownFallbackSession, openFallbackWindow } from './fallback-window.js';
import { WindowTabHost } from './window-tab-host.js';

export interface ElectronFallbackSettings {
  /** The person's setting, read live: show the app's browser windows, or keep them hidden. */
  showWindows: () => boolean;
  /** Where the partition keeps its profile, for `status`. */
  profileDir: string;
}

interface Running {
  host: WindowTabHost;
  engine: EngineExecutor;
}

/** What `startCore` takes as its fallback: the core hands over its policy, log and the person's stop. */
export function electronFallback(settings: ElectronFallbackSettings): (deps: FallbackDeps) => LazyFallback {
  return ({ log, policy, onPersonStop }) => {
    let running: Promise<Running> | undefined;
    let lockedDown = false;

    const start = async (): Promise<Running> => {
      const partition = fallbackSession();
      if (!lockedDown) lockDownFallbackSession(partition);
      lockedDown = true;
      const gate = new PolicyGate(policy);
      const host = new WindowTabHost({
        openWindow: openFallbackWindow,
        session: partition,
        gate,
        showWindows: settings.showWindows,
      });
      // A fresh tag per start, so a handle from an earlier run reads as STALE_TAB, never as some other tab.
      const tag = `e${randomInt(36 ** 3)
        .toString(36)
        .padStart(3, '0')}`;
      const engine = createEngineExecutor(host, {
        tag,
        policy,
        onPersonStop: (where) => onPersonStop?.(personStopMessage(where)),
      });
      await host.create('about:blank', { focus: false });
      log(`app browser ready (${settings.showWindows() ? 'windows shown' : 'windows hidden'}, tabs ${tag}.N)`);
      return { host, engine };
    };
    const ensure = (): Promise<Running> => {
      running ??= start();
      running.catch(() => {
        running = undefined;
      });
      return running;
    };

    return {
      executor: { run: async (op, args, ctx) => (await ensure()).engine.run(op, args, ctx) },
      async state(agent) {
        const current = await running?.catch(() => undefined);
        const described = current ? await current.engine.describe(agent).catch(() => undefined) : undefined;
        return {
          launched: current !== undefined,
          executable: `built-in Chromium ${process.versions['chrome'] ?? ''}`.trim(),
          headless: !settings.showWindows(),
          profileDir: settings.profileDir,
          tabs: described?.tabs ?? 0,
          currentTab: described?.current ?? null,
        };
      },
      async close() {
        const current = await running?.catch(() => undefined);
        running = undefined;
        if (!current) return;
        // What the tabs held paused is failed before their windows close, which would let go of them.
        const note = letGoNote(await current.engine.dispose());
        if (note) log(note);
        current.host.closeAll();
      },
    };
  };
}
