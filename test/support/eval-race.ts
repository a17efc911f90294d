// The navigate-and-eval race both backends run (engine and extension eval-race tests): a navigation to a read-only site
// lands at a different point of each eval, and the script runs in the trusted document it was judged in, or not at all,
// never in the read-only document that replaced it.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import type { CdpEvent } from '../../shared/engine/cdp.js';
import { ToolError } from '../../shared/protocol/errors.js';
import type { OperationResult } from '../../shared/protocol/operations.js';
import { seeded } from './seeded-random.js';

export interface ReadOnlySite {
  /** http://localhost:PORT: the fixture server's cross-origin site, so a navigation keeps the renderer process. */
  origin: string;
  close(): Promise<void>;
}

/** A site whose every page answers after `?ms`, so the commit falls at a different moment of the eval in each race. */
export async function startReadOnlySite(): Promise<ReadOnlySite> {
  const server = createServer((request, response) => {
    const ms = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('ms') ?? '0');
    setTimeout(
      () => response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Read only</title>'),
      ms,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://localhost:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The tab a backend races on, the policy trusting `trusted`'s origin and letting the read-only site only be read. */
export interface RaceTab {
  /** Loads `url` the agent's way, once loaded. */
  load(url: string): Promise<void>;
  /** The main frame's URL now. */
  url(): Promise<string>;
  /** Starts a navigation to `url` from outside the page; not waited for. */
  navigate(url: string): void;
  /** The agent's eval. */
  evaluate(expression: string): Promise<OperationResult>;
  /**
   * Resolves once the main frame committed a document at `origin` (true), or stopped loading without one (false: a
   * navigation the hold stopped), or after `ms`. Call before the navigation starts.
   */
  committedAt(origin: string, ms: number): Promise<boolean>;
  /** Checks, where the backend can, that the priming eval left the document told quiet. */
  primed?(): void;
  /** `expression` run as the page's own code. */
  asPage(expression: string): Promise<unknown>;
}

export interface Race {
  /** The trusted page each race starts on. */
  trusted: string;
  readOnly: string;
  /** Unprimed, each eval is its document's first; primed, one before it left the document told quiet. */
  primed: boolean;
  races: number;
}

/**
 * Runs `races` races and asserts none ran on the read-only site (the script counts itself in the origin's own storage,
 * which outlives the document it ran in); returns how they ended, for the log.
 */
export async function raceEvals(tab: RaceTab, { trusted, readOnly, primed, races }: Race) {
  const random = seeded(primed ? 12 : 11);
  const outcomes = { ranOnTrusted: 0, refused: 0, navigationHeld: 0 };
  const expression = `localStorage.setItem('ran', String(Number(localStorage.getItem('ran') ?? 0) + 1)); location.origin`;
  for (let race = 0; race < races; race++) {
    await tab.load(trusted);
    if (primed) {
      // The last race's document may have fired the load event the load heard: the priming eval waits for this one.
      await expect.poll(() => tab.url()).toBe(trusted);
      await tab.evaluate('0');
      tab.primed?.();
    }
    const committed = tab.committedAt(readOnly, 5_000);
    tab.navigate(`${readOnly}/away?ms=${Math.floor(random() * 25)}`);
    await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 20)));
    const result = await tab.evaluate(expression).then(
      (ran) => ran.text.split('\n')[0],
      (error: unknown) => error,
    );
    if (typeof result === 'string') {
      expect(result).toBe(JSON.stringify(new URL(trusted).origin));
      outcomes.ranOnTrusted++;
    } else {
      expect(result).toBeInstanceOf(ToolError);
      expect(['POLICY_DENIED', 'EVAL_FAILED']).toContain((result as ToolError).code);
      outcomes.refused++;
    }
    // A navigation whose request met the eval's hold was stopped there (another origin): the tab stayed where it was.
    if (!(await committed)) outcomes.navigationHeld++;
  }
  await tab.load(`${readOnly}/away`);
  expect(await tab.asPage(`localStorage.getItem('ran')`)).toBeNull();
  expect(outcomes.ranOnTrusted + outcomes.refused).toBe(races);
  return outcomes;
}

/** Where a file's races run, once its hooks have started it. */
export interface RaceSetting {
  tab: RaceTab;
  trusted: string;
  readOnly: string;
}

/**
 * The file's two race tests: `first` races of a document's first eval (each asks the page first), `steady` of one a
 * priming eval left told quiet (it goes ahead bound by the main world's unique id, ops/eval-ahead.ts). `label` names
 * the outcomes logged.
 */
export function itRacesEvals(
  label: string,
  setting: () => RaceSetting,
  races: { first: number; steady: number },
  timeoutMs: number,
): void {
  it.each([
    ['its first', false, races.first],
    ['a steady', true, races.steady],
  ])(
    `runs %s eval in no read-only document that a navigation put in place`,
    async (_, primed, count) => {
      const { tab, trusted, readOnly } = setting();
      const outcomes = await raceEvals(tab, { trusted, readOnly, primed, races: count });
      console.log(`${label} (${primed ? 'primed' : 'first'}): ${JSON.stringify(outcomes)}`);
    },
    timeoutMs,
  );
}

/**
 * A tab's `committedAt`, from the events of its own session (`own`) as `subscribe` hears them: true once its top frame
 * commits a document of `origin`, false once a load of its main frame (`mainFrameId`) stopped without one, or at `ms`.
 */
export function commitWatch(
  subscribe: (listener: (event: CdpEvent) => void) => () => void,
  own: (event: CdpEvent) => boolean,
  mainFrameId: () => string,
): RaceTab['committedAt'] {
  return (origin, ms) =>
    new Promise((resolve) => {
      const timer = setTimeout(() => done(false), ms);
      let started = false;
      const off = subscribe((event) => {
        if (!own(event)) return;
        const frame = event.params['frame'] as { parentId?: string; url: string } | undefined;
        if (event.method === 'Page.frameNavigated' && !frame?.parentId && frame?.url.startsWith(origin)) done(true);
        if (event.params['frameId'] !== mainFrameId()) return;
        if (event.method === 'Page.frameStartedLoading') started = true;
        if (event.method === 'Page.frameStoppedLoading' && started) done(false);
      });
      function done(committed: boolean) {
        clearTimeout(timer);
        off();
        resolve(committed);
      }
    });
}
