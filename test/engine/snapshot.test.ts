// snapshot and frames on real Chromium: complete forms, a token-bounded 500-row table, frames in place, shadow DOM, ref lifetime.
import { describe, expect, it } from 'vitest';
import { ToolError } from '../../shared/protocol/errors.js';
import { frames } from '../../shared/engine/ops/frames.js';
import { snapshot } from '../../shared/engine/ops/snapshot.js';
import type { PageContext } from '../../shared/engine/page-context.js';
import { callOnElement, resolveRef } from '../../shared/engine/targets.js';
import { loadUrl } from '../support/browser.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';

const suite = useEngineSuite();

/** Outline lines only: drops the header and notes around them. */
function outlineOf(text: string): string[] {
  return text.split('\n').filter((line) => /^\s*- /.test(line));
}

function refIn(line: string | undefined, role: string): string {
  const match = new RegExp(`${role} "[^"]*"[^|]*?\\[ref=([a-z0-9]+)\\]`).exec(line ?? '');
  if (!match) throw new Error(`no ${role} ref in: ${line}`);
  return match[1]!;
}

async function textOfRef(page: PageContext, ref: string): Promise<string> {
  const handle = await resolveRef(page, ref);
  return (await callOnElement(page, handle, 'elementText', [1000])).text;
}

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await run();
  return [result, performance.now() - started];
}

describe('snapshot', () => {
  it('shows a sign-up form completely: labels, values, options, states; never a password or hidden text', async () => {
    const { page } = await suite.browser.open(suite.server.url('form.html'));
    await snapshot(page, {}, ctx);
    const [result, ms] = await timed(() => snapshot(page, {}, ctx));
    console.log(`form snapshot: ${result.text.length} chars, ${ms.toFixed(1)} ms (warm)`);
    const lines = outlineOf(result.text).map((line) => line.replace(/ \[ref=e\d+\]/, ' [ref]'));
    expect(lines).toEqual([
      '- banner:',
      '  - link "Home" [ref]',
      '- main:',
      '  - heading "Create your account" [level=1]',
      '  - paragraph: All fields marked * are required.',
      '  - form "Sign up":',
      '    - textbox "Full name *" [required] [ref]: Ada Lovelace',
      '    - textbox "Email *" [required] [ref]',
      '    - textbox "Password *" [required] [ref]: [value hidden]',
      '    - combobox "Country" [ref]: Mexico',
      '      - options: Canada | Mexico | United States',
      '    - listbox "Interests" [ref]: Music, Travel',
      '      - options: Music | Sports | Travel',
      '    - group "Plan":',
      '      - radio "Free" [checked] [ref]',
      '      - radio "Pro" [ref]',
      '    - checkbox "Send me the newsletter" [checked] [ref]',
      '    - checkbox "I accept the terms" [required] [ref]',
      '    - link "terms" [ref]',
      '    - textbox "About you" [ref]: Mathematician.\\nLikes engines.',
      '    - button "Why we ask" [ref]',
      '    - button "Cancel" [ref]',
      '    - button "Create account" [disabled] [ref]',
      expect.stringMatching(
        /^- iframe \[frame 1 http:\/\/127\.0\.0\.1:\d+\/frame-child\.html, not in the outline: its iframe is hidden or inside an unreadable frame; snapshot frame=1 reads it\]$/,
      ),
    ]);
    expect(result.text.startsWith('Page "Sign up" http://')).toBe(true);
    for (const secret of [
      'hunter2-secret',
      'csrf-token-123',
      'Hidden hint',
      'ghost',
      'aria-hidden text',
      'Collapsed explanation',
      'Child button',
      'abc123',
    ]) {
      expect(result.text).not.toContain(secret);
    }
  });

  it("hides a field's value when its name, id or label names a secret, not only a password's", async () => {
    const { page } = await suite.browser.open(suite.server.url('redact-fields.html'));
    const { text } = await snapshot(page, {}, ctx);
    for (const secret of ['Zq8Lm2Xc9abcQw7', 'k3Jd8sLq0PzX', 's3cr3tTextAreaV4lue']) expect(text).not.toContain(secret);
    expect(text.match(/\[value hidden\]/g)).toHaveLength(3);
    expect(text).toContain('- textbox "City" [ref=e3]: Lisbon');
  });

  it('keeps a 500-row table under 8k tokens by default, one line per row, every row reachable by offset', async () => {
    const { page } = await suite.browser.open(suite.server.url('table.html'));
    const [cold, coldMs] = await timed(() => snapshot(page, {}, ctx));
    const [first, warmMs] = await timed(() => snapshot(page, {}, ctx));
    console.log(
      `table snapshot: ${first.text.length} chars (~${Math.round(first.text.length / 4)} tokens), ${coldMs.toFixed(1)} ms cold, ${warmMs.toFixed(1)} ms warm`,
    );
    expect(first.text).toBe(cold.text);
    expect(first.text.length).toBeLessThan(32_000);
    expect(outlineOf(first.text)[2]).toBe('  - row: Name | Email | Role | Amount | Actions');
    expect(outlineOf(first.text)[3]).toMatch(
      /^ {2}- row: link "Row 1" \[ref=e\d+\] \| user1@example\.com \| Editor \| \$1\.25 \| button "Delete" \[ref=e\d+\]$/,
    );
    expect(first.text).toMatch(/… [\d,]+ more lines: snapshot offset=\d+ for the next part, or find/);

    const rows = new Map<number, string>();
    let offset = 0;
    for (let page_ = 0; page_ < 10; page_++) {
      const part = await snapshot(page, { offset }, ctx);
      expect(part.text.length).toBeLessThan(32_000);
      for (const line of outlineOf(part.text)) {
        const row = /row: link "Row (\d+)"/.exec(line);
        if (row) rows.set(Number(row[1]), line);
      }
      const next = /snapshot offset=(\d+)/.exec(part.text);
      if (!next) break;
      offset = Number(next[1]);
    }
    expect(rows.size).toBe(500);
    const row377 = rows.get(377)!;
    expect(row377).toContain('user377@example.com');
    const button = await resolveRef(page, refIn(row377, 'button'));
    const html = await callOnElement(page, button, 'elementHtml', [200]);
    expect(html.text).toBe('<button type="button" data-row="377">Delete</button>');
    expect(await textOfRef(page, refIn(row377, 'link'))).toBe('Row 377');
  });

  it('pages with limit and offset and says how to get the rest', async () => {
    const { page } = await suite.browser.open(suite.server.url('table.html'));
    const part = await snapshot(page, { limit: 5, offset: 10 }, ctx);
    const lines = outlineOf(part.text);
    expect(lines).toHaveLength(5);
    expect(lines[0]).toContain('"Row 8"');
    expect(part.text).toContain('Lines 11–15 of 503.');
    expect(part.text).toContain('… 488 more lines: snapshot offset=15 for the next part');
  });

  it('puts same- and cross-origin frames in place under their iframes, with refs that work', async () => {
    const { page } = await suite.browser.open(suite.server.url('frames.html'));
    const result = await snapshot(page, {}, ctx);
    const lines = outlineOf(result.text);
    expect(lines.map((line) => line.replace(/\[ref=(f\d+)?e\d+\]/, '[ref=$1]'))).toEqual([
      '- heading "Frames page" [level=1]',
      '- button "Top button" [ref=]',
      '- iframe "Same origin" [frame 1]:',
      '  - paragraph: Child frame text',
      '  - button "Child button" [ref=f1]',
      '  - textbox "Child input" [ref=f1]',
      '- iframe "Cross origin" [frame 2]:',
      '  - paragraph: Child frame text',
      '  - button "Child button" [ref=f2]',
      '  - textbox "Child input" [ref=f2]',
    ]);
    const cross = await resolveRef(page, refIn(lines[8], 'button'));
    expect(cross.frame.sessionId).toBeDefined();
    expect((await callOnElement(page, cross, 'elementHtml', [200])).text).toMatch(
      /^<button id="child" .*>Child button<\/button>$/,
    );
    expect(await textOfRef(page, refIn(lines[4], 'button'))).toBe('Child button');
  });

  it('limits the outline to one frame with `frame`', async () => {
    const { page } = await suite.browser.open(suite.server.url('frames.html'));
    const result = await snapshot(page, { frame: 2 }, ctx);
    expect(result.text.split('\n')[0]).toMatch(/^Frame 2 "Child" http:\/\/localhost:\d+\/frame-child\.html$/);
    expect(outlineOf(result.text)).toHaveLength(3);
    expect(result.text).not.toContain('Top button');
  });

  it('walks open shadow roots and slots, and places an iframe inside a shadow root (sandboxed, yet readable)', async () => {
    const { page } = await suite.browser.open(suite.server.url('shadow.html'));
    const result = await snapshot(page, {}, ctx);
    const lines = outlineOf(result.text).map((line) => line.replace(/\[ref=(f\d+)?e\d+\]/, '[ref=$1]'));
    expect(lines).toEqual([
      '- heading "Shadow page" [level=1]',
      '- region "Profile" [ref=]:',
      '  - heading "Profile of Grace Hopper" [level=2]',
      '  - button "Follow" [ref=]',
      '  - textbox "Nickname" [ref=]: Amazing Grace',
      '  - iframe "Sandboxed note" [frame 1]:',
      '    - paragraph: Inside a sandboxed frame',
      '    - link "Sandboxed link" [ref=f1]',
    ]);
    expect(result.text).not.toContain('Closed secret button');
    expect(await textOfRef(page, refIn(outlineOf(result.text)[4], 'textbox'))).toBe('Amazing Grace');
  });

  it('lets refs die with the page: an old ref after navigation is expired, never another element', async () => {
    const { page } = await suite.browser.open(suite.server.url('nav-a.html'));
    const before = outlineOf((await snapshot(page, {}, ctx)).text);
    const oldRef = refIn(
      before.find((line) => line.includes('Button on A')),
      'button',
    );
    await loadUrl(page, suite.server.url('nav-b.html'));
    await expect(resolveRef(page, oldRef)).rejects.toSatisfy(
      (error) => error instanceof ToolError && ['REF_EXPIRED', 'REF_UNKNOWN'].includes(error.code),
    );
    const after = outlineOf((await snapshot(page, {}, ctx)).text);
    const newRef = refIn(
      after.find((line) => line.includes('Button on B')),
      'button',
    );
    expect(Number(newRef.slice(1))).toBeGreaterThan(Number(oldRef.slice(1)));
    await expect(resolveRef(page, oldRef)).rejects.toBeInstanceOf(ToolError);
    expect(await textOfRef(page, newRef)).toBe('Button on B');
  });

  it('reports a frame that does not answer in place, with why, and still shows the rest', async () => {
    const { page } = await suite.browser.open(suite.server.url('frames.html'));
    const cross = (await page.frames.list()).find((frame) => frame.url.includes('localhost'))!;
    // A frame paused in the debugger cannot run our walker: the same as a frame stuck in a long script.
    await page.cdp.send('Debugger.enable', {}, cross.sessionId);
    await page.cdp.send('Debugger.pause', {}, cross.sessionId);
    try {
      const result = await snapshot(page, {}, ctx);
      expect(result.text).toMatch(
        /^Not readable: frame 2 \(http:\/\/localhost:\d+\/frame-child\.html\): did not answer within 3 s/m,
      );
      expect(result.text).toMatch(
        /^- iframe "Cross origin" \[frame 2 not readable: did not answer within 3 s \(a busy script, a paused debugger or a modal dialog\)\]$/m,
      );
      expect(result.text).toContain('- iframe "Same origin" [frame 1]:');
      expect(result.data).toMatchObject({ unreadable: [2] });
    } finally {
      await page.cdp.send('Debugger.resume', {}, cross.sessionId);
      await page.cdp.send('Debugger.disable', {}, cross.sessionId);
    }
  });
});

describe('frames', () => {
  it('lists every frame with parent, origin, url without query, readability and controls', async () => {
    const { page } = await suite.browser.open(suite.server.url('frames.html'));
    const result = await frames(page, {}, ctx);
    const port = new URL(suite.server.origin).port;
    expect(result.text.split('\n')).toEqual([
      '3 frames (refs in frame N start with fN):',
      `- frame 0 top origin=http://127.0.0.1:${port} url=http://127.0.0.1:${port}/frames.html readable controls=1`,
      `- frame 1 parent=0 origin=http://127.0.0.1:${port} url=http://127.0.0.1:${port}/frame-child.html readable controls=2`,
      `- frame 2 parent=0 origin=http://localhost:${port} url=http://localhost:${port}/frame-child.html readable controls=2 out-of-process`,
    ]);
  });

  it("marks a hidden iframe and never shows a frame's query string", async () => {
    const { page } = await suite.browser.open(suite.server.url('form.html'));
    const lines = (await frames(page, {}, ctx)).text.split('\n');
    expect(lines[2]).toMatch(
      /^- frame 1 parent=0 origin=http:\/\/127\.0\.0\.1:\d+ url=http:\/\/127\.0\.0\.1:\d+\/frame-child\.html readable controls=\d+ hidden$/,
    );
    expect(lines.join('\n')).not.toContain('abc123');
  });
});
