// Drags, new windows and viewports through a real MCP client on the built `chrome-mcp`, in both backends, each judged
// by what the page itself reports: an HTML5 sortable list, a range slider and a pointer-captured knob, a cross-origin
// iframe's own list and a drop into it, drags written from the outline's refs; a target=_blank link, a window.open
// popup and a target=_blank form, each named in the click's result, listed with its URL and selectable at once; a
// viewport the page measures, and the person's own tab left as it is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startMcpBackend, type Backend, type McpBackend } from '../support/mcp-backends.js';
import { textOf } from '../support/tool-result.js';
import { TEST_POLICY_FLAGS } from '../support/test-policy.js';

let fixtures: FixtureServer;

beforeAll(async () => {
  fixtures = await startFixtureServer();
});

afterAll(async () => {
  await fixtures?.close();
});

const CHILD = 'act-drag-child';

describe.each<Backend>(['fallback', 'extension'])('%s backend', (backend) => {
  let mcp: McpBackend;

  beforeAll(async () => {
    mcp = await startMcpBackend(backend, [...TEST_POLICY_FLAGS]);
  });

  afterAll(async () => {
    await mcp?.close();
  });

  /** A fresh tab on the drag page, its cross-origin frame loaded; its handle. */
  async function dragPage(): Promise<string> {
    const opened = await mcp.call('tab_new', { url: fixtures.url('act-drag.html') });
    await mcp.call('wait_for', { text: 'Child zone', frame: CHILD });
    return /opened (\S+)/.exec(opened)![1]!;
  }

  /** The text of the page's element (its top document's, unless `frame` names the child's). */
  const text = (selector: string, frame: string | number = 0) => mcp.call('get_text', { selector, frame });

  /** The element's box in the top viewport, as the page lays it out. */
  async function box(selector: string): Promise<{ x: number; y: number; width: number; height: number }> {
    const answer = await mcp.call('eval', {
      expression: `JSON.stringify(document.querySelector('${selector}').getBoundingClientRect())`,
    });
    return JSON.parse(JSON.parse(answer.split('\n')[0]!) as string) as {
      x: number;
      y: number;
      width: number;
      height: number;
    };
  }

  describe('drag', () => {
    it('reorders an HTML5 drag-and-drop list, and drops onto a zone with the dragged data', async () => {
      await dragPage();
      expect(await mcp.call('drag', { selector: '#apple', to: { selector: '#cherry' } })).toContain('(drag and drop)');
      expect(await text('#order')).toContain('order: Banana,Apple,Cherry');
      await mcp.call('drag', { selector: '#banana', to: { selector: '#zone', frame: 0 } });
      expect(await text('#dropped')).toContain('dropped: Banana');
    });

    it('moves a range slider and a pointer-captured knob to a point', async () => {
      await dragPage();
      const slider = await box('#volume');
      const moved = await mcp.call('drag', {
        selector: '#volume',
        to: { x: slider.x + slider.width - 1, y: slider.y + slider.height / 2 },
      });
      expect(moved).toContain('(pointer drag)');
      expect(await text('#volume-out')).toContain('volume: 100');
      const knob = await box('#knob');
      // Grabbed at its centre (15 px in), let go 150 px right of its left edge: its left edge ends 135 px along.
      await mcp.call('drag', { selector: '#knob', to: { x: knob.x + 150, y: knob.y + knob.height / 2 } });
      expect(await text('#knob-out')).toContain('knob: 135');
    });

    it('reorders a list inside a cross-origin iframe, and drops from the page into that iframe', async () => {
      await dragPage();
      await mcp.call('drag', { selector: '#one', frame: CHILD, to: { selector: '#three', frame: CHILD } });
      expect(await text('#order', CHILD)).toContain('order: Two,One,Three');
      await mcp.call('drag', { selector: '#cherry', frame: 0, to: { selector: '#zone', frame: CHILD } });
      expect(await text('#dropped', CHILD)).toContain('dropped: Cherry');
    });

    it('drags by the refs the outline gives a role-less card and knob, a named region and a named image', async () => {
      await mcp.call('tab_new', { url: fixtures.url('drag-refs.html') });
      const lines = (await mcp.call('snapshot')).split('\n');
      // Found as a model finds them: the ref on the line that names each.
      const ref = (label: string) => /\[ref=(e\d+)\]/.exec(lines.find((line) => line.includes(label)) ?? '')?.[1];
      await mcp.call('drag', { ref: ref('Card: Fix login'), to: { ref: ref('"Done column"') } });
      expect(await text('#dropped')).toContain('dropped: card on done');
      await mcp.call('drag', { ref: ref('"Volume knob"'), to: { ref: ref('"Loud end"') } });
      expect(await text('#knob-out')).toContain('knob: 360');
    });
  });

  describe('new windows', () => {
    it.each([
      ['a target=_blank link', '#blank', 'nav-b.html?blank'],
      ['window.open in a click handler (a popup window)', '#open', 'nav-b.html?popup'],
      ['a form with target=_blank', '#submit', 'nav-b.html?form=1'],
    ])(
      '%s: the click names the new tab, which is listed with its URL and selectable at once',
      async (_, selector, path) => {
        await mcp.call('tab_new', { url: fixtures.url('new-windows.html') });
        const url = fixtures.url(path);
        const clicked = await mcp.call('click', { selector });
        const handle = new RegExp(`→ new tab (\\S+) ${url.replace(/[.?]/g, '\\$&')}$`).exec(clicked)?.[1];
        expect(handle, clicked).toBeDefined();
        // Listed straight away with where it goes, before its page has loaded.
        expect(await mcp.call('tabs')).toContain(`${handle} "`);
        expect((await mcp.call('tabs')).split('\n').find((line) => line.includes(handle!))).toContain(url);
        expect(await mcp.call('tab_select', { tab: handle })).toContain(handle);
        await mcp.call('wait_for', { text: 'Page B' });
        const line = (await mcp.call('tabs')).split('\n').find((each) => each.includes(handle!));
        expect(line).toContain(`${handle} "Nav B" ${url}`);
        // Opened by the agent's act, so the agent may close it.
        expect(await mcp.call('tab_close', { tab: handle })).toBe(`closed ${handle}`);
      },
    );
  });

  describe('resize', () => {
    it('sets the viewport of a tab the agent opened, as the page measures it', async () => {
      const tab = await dragPage();
      expect(await mcp.call('resize', { width: 640, height: 480 })).toBe(`resized ${tab} to 640x480`);
      expect(await mcp.call('eval', { expression: '`${innerWidth}x${innerHeight}`' })).toContain('640x480');
    });

    it.runIf(backend === 'extension')("refuses the person's own tab, and leaves its size alone", async () => {
      const url = fixtures.url('nav-b.html?mine');
      await mcp.browser!.control.send('Target.createTarget', { url });
      const mine = (await mcp.call('tabs')).split('\n').find((line) => line.includes(url));
      const handle = /\s(\S+\.\d+)\s/.exec(mine ?? '')?.[1];
      expect(handle, mine).toBeDefined();
      // Listed by its URL before its document commits: a script there is refused until it has loaded.
      await mcp.call('wait_for', { tab: handle, text: 'Page B' });
      const before = await mcp.call('eval', { tab: handle, expression: 'innerWidth' });
      const refused = await mcp.result('resize', { tab: handle, width: 500, height: 400 });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/^NOT_OWNED: .* is the person's own tab/);
      expect(textOf(refused)).toContain('tab_new');
      expect(await mcp.call('eval', { tab: handle, expression: 'innerWidth' })).toBe(before);
    });
  });
});
