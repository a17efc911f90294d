// The order in which a tab's Input.* commands go out and come back, so a test can tell a mouse move queued with the
// discrete event that flushes it from one awaited alone, which waits for the renderer's next frame (about 1 s in a
// throttled tab). Order, not time: it holds on a busy machine.
import type { Cdp } from '../../shared/engine/cdp.js';
import { PausedChain } from '../../shared/engine/paused-chain.js';

export interface InputStep {
  at: 'sent' | 'answered';
  /** Which Input command, counted from 0 in the order sent. */
  index: number;
  type: string;
}

/** Wraps a tab's CDP handle, logging each Input.* command's sending and answer into `steps`; its guards chain alone. */
export function inputTimeline(cdp: Cdp, steps: InputStep[]): Cdp {
  let sent = 0;
  const wrapped: Omit<Cdp, 'pausedChain'> = {
    async send<R>(method: string, params?: Record<string, unknown>, sessionId?: string) {
      if (!method.startsWith('Input.')) return cdp.send<R>(method, params, sessionId);
      const index = sent++;
      const type = String(params?.['type'] ?? method);
      steps.push({ at: 'sent', index, type });
      try {
        return await cdp.send<R>(method, params, sessionId);
      } finally {
        steps.push({ at: 'answered', index, type });
      }
    },
    on: (listener) => cdp.on(listener),
  };
  return { ...wrapped, pausedChain: new PausedChain(wrapped) };
}

/** Mouse moves answered before any later input was sent: each of them waited for a frame. */
export function movesAwaitedAlone(steps: readonly InputStep[]): number {
  return steps.filter((step, position) => {
    if (step.at !== 'answered' || step.type !== 'mouseMoved') return false;
    const next = steps.find((other) => other.at === 'sent' && other.index === step.index + 1);
    return next === undefined || steps.indexOf(next) > position;
  }).length;
}
