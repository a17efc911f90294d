// The fallback backend: launches its own browser on the first call (or takes the one lazy-fallback.ts started while
// the engine loaded), runs the page engine over it, and starts it again on the next call if it dies.
import { randomInt } from 'node:crypto';
import { createEngineExecutor, type EngineExecutor } from '../../../shared/engine/executor.js';
import { PolicyGate } from '../../../shared/engine/policy-gate.js';
import { letGoNote } from '../../../shared/engine/egress-report.js';
import { personStopMessage } from '../../../shared/engine/presence.js';
import { ToolError } from '../../../shared/protocol/errors.js';
import {
  goesToHolder,
  type AgentContext,
  type Executor,
  type Operation,
  type OperationContext,
  type OperationResult,
} from '../../../shared/protocol/operations.js';
import { heldIdIn, heldIdOf } from '../backend/held-routes.js';
import { CdpTabHost } from './cdp-tab-host.js';
import { findBrowser } from './find-browser.js';
import { launchBrowser, type LaunchedBrowser } from './launch.js';
import type { Policy } from '../../../shared/policy/policy.js';

export interface FallbackOptions {
  executablePath?: string;
  headless: boolean;
  profileDir: string;
  /** The person's own extra browser flags. */
  extraArgs?: string[];
  log: (line: string) => void;
  /** The site policy as it stands now, enforced by the engine in this process. */
  policy: () => Policy;
  /** The person pressed Esc in a tab while the agent acted there; `message` says where, for the stop. */
  onPersonStop?: (message: string) => void;
  /** The browser that held act `id` went away with it unsent: the person's card says so at once. */
  onHeldGone?: (id: string, why: string) => void;
}

export interface FallbackState {
  launched: boolean;
  /** The browser binary that runs (or would be launched); null when none is installed. */
  executable: string | null;
  headless: boolean;
  profileDir: string;
  tabs: number;
  currentTab: { id: string; url: string; title: string } | null;
}

interface Session {
  browser: LaunchedBrowser;
  engine: EngineExecutor;
  /** Rejects with BROWSER_CLOSED when the browser goes away, so calls waiting on page events end too. */
  closed: Promise<never>;
  /** Acts this browser holds, undecided as far as this executor knows: they go with it. */
  held: Set<string>;
}

// What the person's card says of an act whose browser went: held by record in that browser's engine, it went with it.
const GONE_WHY = 'the fallback browser that held it closed (it crashed or was quit), so nothing was sent';

export class FallbackExecutor implements Executor {
  private session: Session | undefined;
  private starting: Promise<Session> | undefined;
  private tag = '';
  private readonly usedTags = new Set<string>();

  /** `first`: a browser already launching for this executor (lazy-fallback.ts starts it while the engine loads). */
  constructor(
    private readonly options: FallbackOptions,
    first?: Promise<LaunchedBrowser>,
  ) {
    if (first) this.starting = this.begin(first);
  }

  async run(op: Operation, args: Record<string, unknown>, ctx: OperationContext): Promise<OperationResult> {
    const session = await this.ensure();
    if (goesToHolder(op)) session.held.delete(heldIdOf(args));
    try {
      return await Promise.race([session.engine.run(op, args, ctx), session.closed]);
    } catch (error) {
      const id = heldIdIn(error);
      if (id !== undefined) session.held.add(id);
      throw error;
    }
  }

  /** Closes the browser this executor launched, if any; the next call would launch a new one. */
  async close(): Promise<void> {
    const session = this.session ?? (await this.starting?.catch(() => undefined));
    this.session = undefined;
    if (!session) return;
    // What the tabs held paused is failed before the browser goes: closing it would let go of them (a keepalive send
    // outlives its page).
    const note = letGoNote(await session.engine.dispose());
    if (note) this.options.log(note);
    await session.browser.close();
  }

  /** `agent`: whose current tab to report (none: the one used last). */
  async state(agent?: AgentContext): Promise<FallbackState> {
    const { headless, profileDir, executablePath } = this.options;
    const described = this.session ? await this.session.engine.describe(agent).catch(() => undefined) : undefined;
    return {
      launched: this.session !== undefined,
      executable: findBrowser(executablePath) ?? null,
      headless,
      profileDir,
      tabs: described?.tabs ?? 0,
      currentTab: described?.current ?? null,
    };
  }

  /** Concurrent first calls share one launch. */
  private ensure(): Promise<Session> {
    if (this.session) return Promise.resolve(this.session);
    this.starting ??= this.begin(launchBrowser(this.options));
    return this.starting;
  }

  /** A failed start is the answer of the calls waiting on it; the next call launches again. */
  private begin(launching: Promise<LaunchedBrowser>): Promise<Session> {
    const started = Date.now();
    const starting = this.launch(launching, started).finally(() => {
      this.starting = undefined;
    });
    // A start nobody waits on yet (lazy-fallback.ts warming up) must not fail as an unhandled rejection.
    starting.catch(() => undefined);
    return starting;
  }

  private async launch(launching: Promise<LaunchedBrowser>, started: number): Promise<Session> {
    const { log, headless, profileDir } = this.options;
    const browser = await launching;
    this.tag = nextTag(this.usedTags);
    const { policy, onPersonStop } = this.options;
    const engine = createEngineExecutor(
      new CdpTabHost(browser.connection, new PolicyGate(policy), { windowPerTab: headless }),
      {
        tag: this.tag,
        policy,
        onPersonStop: (where) => onPersonStop?.(personStopMessage(where)),
      },
    );
    let reject: (error: ToolError) => void = () => undefined;
    const closed = new Promise<never>((_, fail) => {
      reject = fail;
    });
    // Nobody may be racing it when the browser dies between calls.
    closed.catch(() => undefined);
    const session: Session = { browser, engine, closed, held: new Set() };
    browser.connection.on((event) => {
      if (event.method !== 'Connection.closed') return;
      reject(new ToolError('BROWSER_CLOSED', 'The fallback browser closed during the call.'));
      for (const id of session.held) this.options.onHeldGone?.(id, GONE_WHY);
      session.held.clear();
      if (this.session !== session) return;
      this.session = undefined;
      engine.dispose();
      log('fallback browser went away; the next call starts it again');
      // Reaps what is left of it (any helper process still running).
      void browser.close();
    });
    this.session = session;
    log(
      `fallback browser up in ${Date.now() - started} ms (${headless ? 'headless' : 'headed'}, profile ${profileDir}, tabs ${this.tag}.N)`,
    );
    return session;
  }
}

/**
 * A fresh tag per launch: never one this process used before, and random so a handle a model kept from an earlier
 * server process is very unlikely to name a tab of this one (it reads as STALE_TAB instead).
 */
function nextTag(used: Set<string>): string {
  for (;;) {
    const tag = `f${randomInt(36 ** 3)
      .toString(36)
      .padStart(3, '0')}`;
    if (!used.has(tag)) {
      used.add(tag);
      return tag;
    }
  }
}
