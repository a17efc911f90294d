// The whole task a model runs on three pages (sign-up form, 500-row table, cross-origin iframe) through an MCP
// client; shared by the e2e test, which checks it end to end, and the bench, which prices it in tokens.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FixtureServer } from './fixture-server.js';
import { textOf } from './tool-result.js';

export interface TaskBill {
  /** Characters of every tool result the model read. */
  chars: number;
  /** `tool chars` per call, in order. */
  steps: string[];
}

/** The ref written right after the first match of `pattern` (a row line holds several refs). */
export function refIn(text: string, pattern: RegExp): string {
  const match = pattern.exec(text);
  const ref = match ? text.slice(match.index).match(/\[ref=(\w+)\]/)?.[1] : undefined;
  if (!ref) throw new Error(`no ref for ${pattern} in:\n${text.slice(0, 2000)}`);
  return ref;
}

export async function runWholeTask(client: Client, server: FixtureServer): Promise<TaskBill> {
  const bill: TaskBill = { chars: 0, steps: [] };
  const step = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    const text = textOf(result);
    if (result.isError) throw new Error(`${name} failed: ${text}`);
    bill.chars += text.length;
    bill.steps.push(`${name} ${text.length}`);
    return text;
  };
  const expectIn = (text: string, wanted: string, what: string) => {
    if (!text.includes(wanted)) throw new Error(`${what}: expected "${wanted}" in:\n${text}`);
  };

  await step('tab_new', { url: server.url('bench-signup.html') });
  const form = await step('snapshot', {});
  await step('type', { ref: refIn(form, /textbox "Name/), text: 'Ada Lovelace' });
  await step('type', { ref: refIn(form, /textbox "Email/), text: 'ada@example.com' });
  await step('fill_form', { fields: [{ ref: refIn(form, /combobox "Country/), value: 'Japan' }] });
  await step('click', { ref: refIn(form, /checkbox "I accept/) });
  await step('click', { ref: refIn(form, /button "Join/) });
  expectIn(
    await step('get_text', { selector: '#result' }),
    'Welcome Ada Lovelace <ada@example.com> from Japan',
    'form task',
  );

  await step('navigate', { url: server.url('bench-table.html') });
  await step('snapshot', {});
  const found = await step('find', { text: 'Customer 377' });
  await step('click', { ref: refIn(found, /button "Delete"/) });
  expectIn(await step('get_text', { selector: '#status' }), 'Deleted order 377', 'table task');

  await step('navigate', { url: server.url('frames.html') });
  const framed = await step('snapshot', {});
  const crossFrameButton = [...framed.matchAll(/button "Child button" \[ref=(f\d+e\d+)\]/g)].at(-1)?.[1];
  if (!crossFrameButton) throw new Error(`no cross-origin frame button in:\n${framed}`);
  await step('click', { ref: crossFrameButton });
  expectIn(await step('get_text', { ref: crossFrameButton }), 'Clicked in localhost', 'iframe task');
  return bill;
}
