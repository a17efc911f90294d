// A risky act the engine held: its card goes to the person — in the client when it can ask, else in the panel — and an
// answer in the client decides it at once.
import { HeldCardSchema } from '../../../shared/control/held.js';
import { ToolError } from '../../../shared/protocol/errors.js';
import type { OperationResult } from '../../../shared/protocol/operations.js';
import type { ControlHub } from '../control/hub.js';
import type { Elicitor } from './elicit.js';

/** Registers the held act and answers for it: sent, not sent, or still waiting (rethrown as HELD with the card's id). */
export async function holdForPerson(
  held: ToolError,
  control: ControlHub,
  elicitor: Elicitor,
  signal: AbortSignal,
): Promise<OperationResult> {
  const card = HeldCardSchema.safeParse(held.data?.['held']);
  // A HELD error without a readable card cannot be shown to the person; it stays what the engine said.
  if (!card.success) throw held;
  const act = control.holdAct(card.data);
  const release = await elicitor.confirm(
    `The agent's ${act.tool} would send: ${act.method} ${act.url}\n${act.summary}\n(${act.why}). Send it?`,
    signal,
  );
  if (release === undefined) {
    // The engine's message names the act's id already: the person finds it in the panel by that.
    throw new ToolError('HELD', held.message, { next: held.next, data: { held: act.id } });
  }
  const { outcome, why: gone } = await control.decideHeld(act.id, release);
  if (outcome === 'released')
    return { text: `${held.message} The person confirmed it: sent.`, data: { held: act.id, outcome } };
  const why =
    outcome === 'rejected'
      ? 'The person rejected it: nothing was sent.'
      : `Nothing was sent: ${gone ?? 'its page changed before the person confirmed.'}`;
  throw new ToolError('HELD', `${held.message} ${why}`, {
    next: 'Do not retry it. Ask the person (`ask`) if it should be done another way.',
    data: { held: act.id, outcome },
  });
}
