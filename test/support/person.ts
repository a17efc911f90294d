// The person at the keyboard of a driven tab, for the Stop tests: their own CDP session on the tab (its keys are as
// trusted as a real keyboard's), the stop-counter fixture's state, and a batch slow enough to press Esc mid-way.
import { expect, vi } from 'vitest';
import type { CdpConnection } from '../../electron/core/fallback/cdp-connection.js';
import { ToolError } from '../../shared/protocol/errors.js';
import type { OperationResult } from '../../shared/protocol/operations.js';

export interface Person {
  pressEscape(): Promise<void>;
  /** Evaluates in the page's own world, as the page's scripts see it. */
  page<T>(expression: string): Promise<T>;
  /** The viewport as the person sees it, as PNG. */
  look(): Promise<string>;
}

/** Sits the person in front of page target `targetId` of the browser behind `connection`. */
export async function personAt(connection: CdpConnection, targetId: string): Promise<Person> {
  const { sessionId } = await connection.send<{ sessionId: string }>('Target.attachToTarget', {
    targetId,
    flatten: true,
  });
  // The person looks at the tab: it is shown and focused, so it renders frames as the tab in front does (a headless
  // background tab renders none, and a screenshot or a pill waiting on one would wait for good).
  await connection.send('Emulation.setFocusEmulationEnabled', { enabled: true }, sessionId);
  const key = (type: string) =>
    connection.send(
      'Input.dispatchKeyEvent',
      { type, key: 'Escape', code: 'Escape', windowsVirtualKeyCode: 27, nativeVirtualKeyCode: 27 },
      sessionId,
    );
  return {
    async pressEscape() {
      await key('rawKeyDown');
      await key('keyUp');
    },
    async page<T>(expression: string) {
      const reply = await connection.send<{ result: { value: T }; exceptionDetails?: { text: string } }>(
        'Runtime.evaluate',
        { expression, returnByValue: true },
        sessionId,
      );
      if (reply.exceptionDetails) throw new Error(`page: ${reply.exceptionDetails.text}`);
      return reply.result.value;
    },
    async look() {
      return (await connection.send<{ data: string }>('Page.captureScreenshot', { format: 'png' }, sessionId)).data;
    },
  };
}

type Step = { tool: string; args: Record<string, unknown> };

/** Batch steps: `first`, then `clicks` clicks on the counter, each followed by a wait that lasts its whole second. */
export function slowClicks(clicks: number, first: Step[] = []): Step[] {
  const steps = [...first];
  for (let i = 0; i < clicks; i++) {
    steps.push(
      { tool: 'click', args: { selector: '#add' } },
      { tool: 'wait_for', args: { selector: '#never', timeout: 1_000 } },
    );
  }
  return steps;
}

/** An Escape the stop-counter page saw: a real key or not, and how many clicks were done at that moment. */
export interface SeenEscape {
  trusted: boolean;
  clicks: number;
}

/** Presses Esc as the person once `clicks` clicks are done, and returns how the batch ended and what the page saw. */
export async function escapeAfter(
  person: Person,
  clicks: number,
  batch: Promise<OperationResult>,
): Promise<{ code: string; seen: SeenEscape[]; done: number }> {
  const ended = batch.then(
    (result) => `finished: ${result.text}`,
    (error: unknown) => (error instanceof ToolError ? error.code : String(error)),
  );
  await vi.waitFor(async () => expect(await person.page<number>('clicks')).toBeGreaterThanOrEqual(clicks), {
    timeout: 10_000,
    interval: 20,
  });
  await person.pressEscape();
  const code = await ended;
  return { code, seen: await person.page<SeenEscape[]>('escapes'), done: await person.page<number>('clicks') };
}

/** A left click at (x, y) through the browser's input, as the person's mouse makes one; `send` reaches the tab. */
export async function personClickAt(
  send: (method: string, params: Record<string, unknown>) => Promise<unknown>,
  x: number,
  y: number,
): Promise<void> {
  for (const type of ['mousePressed', 'mouseReleased'])
    await send('Input.dispatchMouseEvent', { type, x, y, button: 'left', clickCount: 1 });
}
