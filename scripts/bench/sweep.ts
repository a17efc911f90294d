// The page-size sweep: eval, click, type and snapshot on pages of 100 to 50,000 elements through MCP stdio, beside raw
// CDP on a page of the same size in the same run, as ratios: a call should cost what its CDP work costs at any size.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FixtureServer } from '../../test/support/fixture-server.js';
import { call } from './mcp-client.js';
import { ROUNDS, time, type Table } from './measure.js';

export const SIZES = (process.env['BENCH_SIZES'] ?? '100,1000,10000,50000').split(',').map(Number);
const ROUNDS_PER_SIZE = Math.max(10, Math.floor(ROUNDS / 4));
const SNAPSHOT_ROUNDS = 10;

/** Direct CDP to a tab showing the same page: the baseline a call is measured against. */
export interface RawTab {
  send(method: string, params?: Record<string, unknown>): Promise<unknown>;
  close(): Promise<void>;
}

export interface SweepSide {
  /** Names the backend in each row: 'fallback' or 'extension'. */
  label: string;
  client: Client;
  /** A raw tab at `url`, once chrome-mcp's own tab has navigated there. */
  raw(url: string): Promise<RawTab>;
}

export function sizedPage(server: FixtureServer, elements: number): string {
  return server.url(`bench-sized.html?n=${elements}`);
}

export async function sweep(side: SweepSide, server: FixtureServer, table: Table): Promise<void> {
  for (const elements of SIZES) {
    const url = sizedPage(server, elements);
    await call(side.client, 'navigate', { url });
    const raw = await side.raw(url);
    try {
      const at = `${elements.toLocaleString('en-US')} el, ${side.label}`;
      const rawEval = await time(ROUNDS_PER_SIZE, () =>
        raw.send('Runtime.evaluate', { expression: 'document.title', returnByValue: true }),
      );
      table.report(
        `eval (${at})`,
        await time(ROUNDS_PER_SIZE, () => call(side.client, 'eval', { expression: 'document.title' })),
        rawEval,
      );
      // Raw clicks the tool's own button (its handler's work is the page's, in both), found once beforehand.
      const { x, y } = await centreOf(raw, '#go');
      const rawClick = await time(ROUNDS_PER_SIZE, async () => {
        for (const type of ['mousePressed', 'mouseReleased'])
          await raw.send('Input.dispatchMouseEvent', { type, x, y, button: 'left', clickCount: 1 });
      });
      table.report(
        `click selector (${at})`,
        await time(ROUNDS_PER_SIZE, () => call(side.client, 'click', { selector: '#go' })),
        rawClick,
      );
      // Raw typing is the one insertText the tool's text goes out as, into the field focused once beforehand (with
      // focus emulation, as the engine has it, so it lands in a background tab too; the row says if it did not).
      await raw.send('Emulation.setFocusEmulationEnabled', { enabled: true });
      await raw.send('Runtime.evaluate', { expression: 'document.getElementById("name").focus()' });
      const typed = await time(ROUNDS_PER_SIZE, () =>
        call(side.client, 'type', { selector: '#name', text: 'Ada Lovelace', clear: true }),
      );
      const before = await valueLength(raw);
      const rawTyped = await time(ROUNDS_PER_SIZE, () => raw.send('Input.insertText', { text: 'Ada Lovelace' }));
      const landed = (await valueLength(raw)) > before;
      table.report(`type 12 chars (${at})${landed ? '' : ' [raw typing did not land]'}`, typed, rawTyped);
      // Raw reading is the page's whole text in one evaluate: what reading the page costs without any walk of ours.
      table.report(
        `snapshot (${at})`,
        await time(SNAPSHOT_ROUNDS, () => call(side.client, 'snapshot', {})),
        await time(SNAPSHOT_ROUNDS, () =>
          raw.send('Runtime.evaluate', { expression: 'document.body.innerText', returnByValue: true }),
        ),
      );
    } finally {
      await raw.close();
    }
  }
}

async function centreOf(raw: RawTab, selector: string): Promise<{ x: number; y: number }> {
  const reply = (await raw.send('Runtime.evaluate', {
    expression: `(() => { const r = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect();
      return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; })()`,
    returnByValue: true,
  })) as { result: { value: { x: number; y: number } } };
  return reply.result.value;
}

async function valueLength(raw: RawTab): Promise<number> {
  const reply = (await raw.send('Runtime.evaluate', {
    expression: 'document.getElementById("name").value.length',
    returnByValue: true,
  })) as { result: { value: number } };
  return reply.result.value;
}
