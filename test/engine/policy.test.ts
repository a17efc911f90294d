// The site policy in the engine, on real Chromium: a refused site gets no request from us (navigation, redirect hop,
// link, download, iframe), a frame of a refused site is never read or acted on, and a live change applies at once.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngineExecutor, type EngineExecutor } from '../../shared/engine/executor.js';
import { policyFromFlags } from '../../shared/policy/flags.js';
import { parseSitePattern } from '../../shared/policy/pattern.js';
import type { Policy } from '../../shared/policy/policy.js';
import type { Operation, OperationResult } from '../../shared/protocol/operations.js';
import { ctx, failure, useEngineSuite } from '../support/engine-suite.js';
import { startWatchedSite, type WatchedSite } from '../support/watched-site.js';
import { testServerPolicy } from '../support/test-policy.js';

const suite = useEngineSuite();
/** 127.0.0.1 (the fixture server) may be read, acted on and scripted; everything else is asked about. */
const HOME_TRUSTED = testServerPolicy('trusted', ['127.0.0.1']);
let policy: Policy = HOME_TRUSTED;
let executor: EngineExecutor;
let watched: WatchedSite;

beforeAll(async () => {
  watched = await startWatchedSite();
  executor = createEngineExecutor(suite.browser.host, { tag: 'tp', policy: () => policy });
});
afterAll(async () => {
  executor?.dispose();
  await watched?.close();
});
beforeEach(() => {
  policy = HOME_TRUSTED;
});
afterEach(() => {
  watched.requests.length = 0;
});

function run(op: Operation, args: Record<string, unknown> = {}): Promise<OperationResult> {
  return executor.run(op, args, ctx);
}

function linksPage(frame = false): string {
  return suite.server.url(`policy-links.html?to=${encodeURIComponent(watched.origin)}${frame ? '&frame=1' : ''}`);
}

/** The watched site is blocked by a rule, not merely undecided. */
function withWatchedBlocked(): Policy {
  return { ...HOME_TRUSTED, rules: [{ site: parseSitePattern(new URL(watched.origin).host), level: 'blocked' }] };
}

/** A ref from the last snapshot line that contains `text`. */
function refOf(snapshotText: string, text: string): string {
  const line = snapshotText.split('\n').find((candidate) => candidate.includes(text));
  const ref = line && /\[ref=([^\]]+)\]/.exec(line)?.[1];
  if (!ref) throw new Error(`no ref for ${text} in:\n${snapshotText}`);
  return ref;
}

describe('navigation into a refused site', () => {
  it('asks about a site with no rule, and the site sees no request', async () => {
    await run('tab_new', { url: linksPage() });
    const refused = await failure(run('navigate', { url: `${watched.origin}/` }));
    expect(refused.code).toBe('DOMAIN_CONFIRMATION_REQUIRED');
    expect(refused.data).toMatchObject({ reason: 'ask', site: new URL(watched.origin).host, need: 'read' });
    expect(watched.requests).toEqual([]);
    // The tab stayed where it was: an aborted navigation commits no error page.
    expect((await run('snapshot')).text).toContain('Links out');
  });

  it('refuses a blocked site, the blind list, and every hop of a redirect chain before it leaves the browser', async () => {
    policy = withWatchedBlocked();
    await run('tab_new', { url: linksPage() });
    expect((await failure(run('navigate', { url: `${watched.origin}/` }))).code).toBe('POLICY_DENIED');
    const hop = await failure(
      run('navigate', { url: suite.server.url(`redirect?to=${encodeURIComponent(`${watched.origin}/`)}`) }),
    );
    expect(hop.code).toBe('POLICY_DENIED');
    expect(hop.message).toContain('(redirected to 127.0.0.2');
    const blind = await failure(run('navigate', { url: 'https://www.chase.com/' }));
    expect(blind.data).toMatchObject({ reason: 'blind', have: 'blind' });
    expect(watched.requests).toEqual([]);
  });

  it('says a click happened but its navigation was stopped (a link, a redirecting link), and refuses a download link before clicking', async () => {
    policy = withWatchedBlocked();
    await run('tab_new', { url: linksPage() });
    for (const selector of ['#out', '#redirected']) {
      const refused = await failure(run('click', { selector }));
      expect(refused.code).toBe('POLICY_DENIED');
      expect(refused.message).toMatch(/^clicked .*, but the navigation it started/);
    }
    expect((await failure(run('click', { selector: '#download' }))).message).toMatch(
      /^Not activated: it would download/,
    );
    expect(watched.requests).toEqual([]);
    expect((await run('snapshot')).text).toContain('Links out');
  });

  it('applies a live policy change to the next call, and lets a now-allowed site load', async () => {
    await run('tab_new', { url: linksPage() });
    expect((await failure(run('navigate', { url: `${watched.origin}/` }))).code).toBe('DOMAIN_CONFIRMATION_REQUIRED');
    policy = policyFromFlags({ allow: [new URL(watched.origin).host], trust: [] }, HOME_TRUSTED);
    expect((await run('navigate', { url: `${watched.origin}/` })).text).toContain('Watched home');
    policy = withWatchedBlocked();
    expect((await failure(run('snapshot'))).code).toBe('POLICY_DENIED');
    expect((await failure(run('click', { selector: 'h1' }))).code).toBe('POLICY_DENIED');
  });
});

describe('a frame of a refused site inside an allowed page', () => {
  /** Opens the links page with the watched site's frame loaded (allowed while it loads), then refuses the site. */
  async function pageWithRefusedFrame(): Promise<{ outline: string; transfer: string }> {
    policy = policyFromFlags({ allow: [new URL(watched.origin).host], trust: [] }, HOME_TRUSTED);
    await run('tab_new', { url: linksPage(true) });
    await run('wait_for', { text: 'Secret account', frame: 1 });
    // A ref minted while the frame was allowed: it must not outlive the permission.
    const transfer = refOf((await run('snapshot')).text, 'button "Transfer"');
    policy = withWatchedBlocked();
    watched.requests.length = 0;
    return { outline: (await run('snapshot')).text, transfer };
  }

  it('is listed by origin only and never read, searched, acted on or scripted; its page sees no event from us', async () => {
    const { outline, transfer } = await pageWithRefusedFrame();
    expect(outline).toMatch(
      /iframe "Other site" \[frame 1 not readable: not allowed by the site policy \(127\.0\.0\.2:\d+: blocked\)\]/,
    );
    expect(outline).not.toContain('Secret account');
    expect((await run('get_text')).text).not.toContain('Secret account');
    expect((await run('find', { text: 'Transfer' })).text).not.toContain('button');
    expect((await failure(run('snapshot', { frame: 1 }))).code).toBe('POLICY_DENIED');
    expect((await failure(run('click', { selector: 'button', frame: 1 }))).code).toBe('POLICY_DENIED');
    expect((await failure(run('click', { ref: transfer }))).code).toBe('POLICY_DENIED');
    expect((await failure(run('type', { selector: '#note', frame: 1, text: 'x' }))).code).toBe('POLICY_DENIED');
    expect((await failure(run('eval', { expression: 'document.body.innerText', frame: 1 }))).code).toBe(
      'POLICY_DENIED',
    );
    // A click by coordinates could land in the frame; keys could go to it if it held focus.
    expect((await failure(run('click', { x: 100, y: 300 }))).message).toContain('could land in it');
    expect((await failure(run('screenshot'))).message).toContain('screenshot refused');
    const frames = (await run('frames')).text;
    expect(frames).not.toContain('/frame');
    expect(watched.events()).toEqual([]);
    expect(watched.requests).toEqual([]);
  });

  it("blocks the iframe's own load when the page embeds a refused site", async () => {
    policy = withWatchedBlocked();
    await run('tab_new', { url: linksPage(true) });
    const outline = (await run('snapshot')).text;
    expect(outline).toContain('iframe "Other site"');
    expect(watched.requests).toEqual([]);
  });
});

describe('tabs on refused sites', () => {
  it('lists them by site alone: no title, no path', async () => {
    policy = policyFromFlags({ allow: [new URL(watched.origin).host], trust: [] }, HOME_TRUSTED);
    const opened = await run('tab_new', { url: `${watched.origin}/?account=12345` });
    policy = HOME_TRUSTED;
    const listing = (await run('tabs')).text;
    const line = listing.split('\n').find((candidate) => candidate.includes(String(opened.data?.['tab'])))!;
    expect(line).toContain(`"" ${watched.origin}`);
    expect(line).not.toContain('account');
    expect(line).not.toContain('Watched home');
  });

  it('refuses scripts where the site is only allowed to act, naming the level it has', async () => {
    policy = testServerPolicy('act', ['127.0.0.1']);
    await run('tab_new', { url: linksPage() });
    const refused = await failure(run('eval', { expression: '1' }));
    expect(refused.code).toBe('POLICY_DENIED');
    expect(refused.data).toMatchObject({ reason: 'below', have: 'act', need: 'trusted' });
  });
});
