// The site policy end to end through the person's Chrome: the built `chrome-mcp` on stdio with the real extension,
// the person setting rules and answering questions through the control API. A matrix of standing rules × tool
// classes on a watched site; every way off an allowed page into a blocked site; the three answers to a question.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControlInput } from '../../shared/control/api.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startLinkedCore, type LinkedCore } from '../support/linked-core.js';
import { dataOf, textOf, type CallResult } from '../support/tool-result.js';
import { startWatchedSite, type WatchedSite } from '../support/watched-site.js';
import { testServerFlags } from '../support/test-policy.js';

let fixtures: FixtureServer;
let core: LinkedCore;
/** The matrix's site. */
let watched: WatchedSite;
/** The site the allowed page links, redirects, frames and pops up into. */
let elsewhere: WatchedSite;
/** One undecided site per answer, so that one answer's grant or rule never decides another's question. */
let asked: Record<'once' | 'always' | 'deny', WatchedSite>;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  watched = await startWatchedSite('127.0.0.2');
  elsewhere = await startWatchedSite('127.0.0.3');
  asked = {
    once: await startWatchedSite('127.0.0.4'),
    always: await startWatchedSite('127.0.0.5'),
    deny: await startWatchedSite('127.0.0.6'),
  };
  // The fixture server's site is trusted for the run, so every page the agent starts from is allowed.
  core = await startLinkedCore(testServerFlags('trusted', ['127.0.0.1']));
});

afterAll(async () => {
  await core?.close();
  for (const site of [watched, elsewhere, ...Object.values(asked ?? {})]) await site?.close();
  await fixtures?.close();
});

const hostOf = (site: WatchedSite) => new URL(site.origin).host;

function call(name: string, args: Record<string, unknown> = {}): Promise<CallResult> {
  return core.client.callTool({ name, arguments: args });
}

/** The policy editor's save: these standing rules, every other site asked about. */
async function standing(rules: ControlInput<'policy.set'>['rules']): Promise<void> {
  await core.control.call('policy.set', { rules, default: 'ask', downloads: false });
}

/** A refusal's code and why, from the structured part a model (and the core's asking) reads. */
function refusal(result: CallResult): {
  code?: unknown;
  reason?: unknown;
  site?: unknown;
  origin?: unknown;
  need?: unknown;
  question?: unknown;
} {
  expect(result.isError, textOf(result)).toBe(true);
  return dataOf(result) ?? {};
}

describe('a matrix of standing rules × tool classes on the watched site', () => {
  const STANDINGS = ['ask', 'blocked', 'read', 'act', 'trusted'] as const;
  // One tool per class: navigate and snapshot need read, click act, eval trusted.
  const TOOLS = ['navigate', 'snapshot', 'click', 'eval'] as const;
  type Standing = (typeof STANDINGS)[number];
  type Tool = (typeof TOOLS)[number];
  // `asked (need)`: DOMAIN_CONFIRMATION_REQUIRED with a question for that need listed for the person;
  // `denied: why`: POLICY_DENIED; `loaded`: the navigation reached the site.
  const EXPECTED: Record<Standing, Record<Tool, string>> = {
    ask: { navigate: 'asked (read)', snapshot: 'asked (read)', click: 'asked (act)', eval: 'asked (trusted)' },
    blocked: {
      navigate: 'denied: blocked',
      snapshot: 'denied: blocked',
      click: 'denied: blocked',
      eval: 'denied: blocked',
    },
    read: { navigate: 'ok, loaded', snapshot: 'ok', click: 'denied: below', eval: 'denied: below' },
    act: { navigate: 'ok, loaded', snapshot: 'ok', click: 'ok', eval: 'denied: below' },
    trusted: { navigate: 'ok, loaded', snapshot: 'ok', click: 'ok', eval: 'ok' },
  };
  const args = (tool: Tool): Record<string, unknown> =>
    ({
      navigate: { url: `${watched.origin}/` },
      snapshot: {},
      click: { selector: 'h1' },
      // A script that would itself click, so a refused eval that ran anyway shows up as an event.
      eval: { expression: "document.querySelector('h1').click(), document.title" },
    })[tool];

  async function outcome(tool: Tool): Promise<string> {
    const before = watched.requests.length;
    const result = await call(tool, args(tool));
    const loaded = watched.requests.slice(before).includes('/') ? ', loaded' : '';
    if (!result.isError) return `ok${loaded}`;
    const { code, reason, site, origin, need, question } = refusal(result);
    if (code === 'POLICY_DENIED') return `denied: ${String(reason)}${loaded}`;
    if (code !== 'DOMAIN_CONFIRMATION_REQUIRED') return textOf(result).split('\n')[0]!;
    const { questions } = await core.control.call('questions.list');
    // The question names the exact origin: what an answer would grant.
    const listed = questions.some(
      (q) => q.id === question && q.kind === 'site' && q.site === origin && q.need === need && site === hostOf(watched),
    );
    return listed
      ? `asked (${String(need)})${loaded}`
      : `asked, with no question for the person: ${textOf(result).split('\n')[0]}`;
  }

  it('asks, denies (blocked, below the level) or runs each call as the rule says; refused calls leave the page untouched', async () => {
    await standing([{ site: hostOf(watched), level: 'trusted' }]);
    expect((await call('tab_new', { url: `${watched.origin}/` })).isError).toBeFalsy();
    const cells = STANDINGS.flatMap((level) => TOOLS.map((tool) => ({ level, tool })));
    const allowed = ({ level, tool }: { level: Standing; tool: Tool }) => EXPECTED[level][tool].startsWith('ok');
    // Every refused call first, then the allowed ones: an event the page saw before the first allowed call came
    // from a call that should have been refused.
    const refusedFirst = [...cells.filter((cell) => !allowed(cell)), ...cells.filter(allowed)];
    const seen = structuredClone(EXPECTED);
    let eventsFromRefused: string[] | undefined;
    for (const { level, tool } of refusedFirst) {
      if (eventsFromRefused === undefined && allowed({ level, tool })) eventsFromRefused = watched.events();
      await standing(level === 'ask' ? [] : [{ site: hostOf(watched), level }]);
      seen[level][tool] = await outcome(tool);
    }
    expect(seen).toEqual(EXPECTED);
    expect(eventsFromRefused).toEqual([]);
    // The page does report what reaches it: the allowed clicks were seen.
    expect(watched.events()).toContain('click');
  });
});

describe('from an allowed page into a blocked site', () => {
  it('refuses a navigation, a redirect hop, a link, a download link, a popup and an iframe: the site gets no request', async () => {
    await standing([{ site: hostOf(elsewhere), level: 'blocked' }]);
    const links = fixtures.url(`policy-links.html?to=${encodeURIComponent(elsewhere.origin)}&frame=1`);
    expect((await call('tab_new', { url: links })).isError).toBeFalsy();
    // The core refuses the direct navigation; the extension's engine the hop, the clicks' navigations and the frame.
    const attempts: [string, Record<string, unknown>][] = [
      ['navigate', { url: `${elsewhere.origin}/` }],
      ['navigate', { url: fixtures.url(`redirect?to=${encodeURIComponent(`${elsewhere.origin}/`)}`) }],
      ...['#out', '#redirected', '#download', '#popup'].map((selector): [string, Record<string, unknown>] => [
        'click',
        { selector },
      ]),
    ];
    for (const [tool, args] of attempts) {
      const result = await call(tool, args);
      expect(textOf(result), JSON.stringify(args)).toMatch(
        new RegExp(`^POLICY_DENIED: .*${hostOf(elsewhere).replace(/\./g, '\\.')}`),
      );
      expect(result.isError).toBe(true);
    }
    const outline = textOf(await call('snapshot'));
    expect(outline).toMatch(/iframe "Other site" \[frame \d+ not readable: not allowed by the site policy/);
    expect(outline).not.toContain('Secret account');
    // The agent stayed on the allowed page throughout.
    expect(outline).toContain('Links out');
    expect(elsewhere.requests).toEqual([]);
  });
});

describe('the person answers a question through the control API', () => {
  /** Asks about `site` with a navigation and returns the question's id; the site has seen nothing yet. */
  async function question(site: WatchedSite): Promise<string> {
    const refused = refusal(await call('navigate', { url: `${site.origin}/` }));
    expect(refused).toMatchObject({
      code: 'DOMAIN_CONFIRMATION_REQUIRED',
      reason: 'ask',
      site: hostOf(site),
      need: 'read',
    });
    const { questions } = await core.control.call('questions.list');
    expect(questions).toContainEqual(
      expect.objectContaining({ id: refused.question, kind: 'site', site: site.origin, tool: 'navigate' }),
    );
    expect(site.requests).toEqual([]);
    return String(refused.question);
  }

  it("once: the agent's retry goes through, for this run only", async () => {
    await standing([]);
    await core.control.call('questions.answer', { id: await question(asked.once), answer: 'once' });
    const retry = await call('navigate', { url: `${asked.once.origin}/` });
    expect(retry.isError, textOf(retry)).toBeFalsy();
    expect(textOf(retry)).toContain('Watched home');
    const policy = await core.control.call('policy.get');
    expect(policy.grants).toContainEqual({ site: asked.once.origin, level: 'act' });
    expect(policy.rules).toEqual([]);
  });

  it('always: the retry goes through and the rule is standing, in the policy file too', async () => {
    await standing([]);
    await core.control.call('questions.answer', { id: await question(asked.always), answer: 'always' });
    expect((await call('navigate', { url: `${asked.always.origin}/` })).isError).toBeFalsy();
    const policy = await core.control.call('policy.get');
    expect(policy.rules).toEqual([{ site: asked.always.origin, level: 'act' }]);
    expect(JSON.parse(readFileSync(policy.file, 'utf8')).rules).toEqual([{ site: asked.always.origin, level: 'act' }]);
  });

  it('deny: the retry is POLICY_DENIED, and the site still has seen nothing', async () => {
    await standing([]);
    await core.control.call('questions.answer', { id: await question(asked.deny), answer: 'deny' });
    expect(refusal(await call('navigate', { url: `${asked.deny.origin}/` }))).toMatchObject({
      code: 'POLICY_DENIED',
      reason: 'blocked',
    });
    expect(asked.deny.requests).toEqual([]);
  });
});
