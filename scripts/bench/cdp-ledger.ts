// The bench's record of CDP commands sent for one call, wherever they were caught (the fallback's connection, the
// extension's chrome.debugger): how many, which wait on each other (steps), how long each step and each method took.
import { performance } from 'node:perf_hooks';
import type { CdpConnection } from '../../electron/core/fallback/cdp-connection.js';

/** One command: its method and when it left and was answered (ms, one clock per ledger). */
export interface Sent {
  method: string;
  start: number;
  end: number;
  /** The page library's function a `Runtime.callFunctionOn` of ours runs (frame-worlds.ts names it in the call). */
  libraryCall?: string;
}

const LIBRARY_CALL = /globalThis\.__cm\.(\w+)\(/;

/**
 * The pill's refresh (presence.ts): sent at most once a second whichever calls run, unawaited, so a call on a busy box
 * may meet one; a count of what one call sends leaves it out.
 */
export const isPresenceRefresh = (entry: Sent): boolean => entry.libraryCall === 'indicate';

/** Commands that wait on each other: a step begins with a command sent after every earlier one had answered. */
export function stepsOf(sent: readonly Sent[]): Sent[][] {
  const steps: Sent[][] = [];
  let answeredBy = -Infinity;
  for (const entry of [...sent].sort((a, b) => a.start - b.start)) {
    if (entry.start >= answeredBy) steps.push([entry]);
    else steps.at(-1)!.push(entry);
    answeredBy = steps.at(-1)!.length === 1 ? entry.end : Math.max(answeredBy, entry.end);
  }
  return steps;
}

/**
 * How long at least one command was in flight before the call returned (the union of the commands' intervals); a
 * command the call did not wait for counts until the return.
 */
export function busyMs(sent: readonly Sent[], returned: number): number {
  let total = 0;
  let until = -Infinity;
  for (const entry of [...sent].sort((a, b) => a.start - b.start)) {
    const end = Math.min(entry.end, returned);
    if (end <= until) continue;
    total += end - Math.max(entry.start, until);
    until = end;
  }
  return total;
}

/** "A×2, B": each method once, in the order first sent, with its count. */
export function byMethod(sent: readonly Sent[]): string {
  const counts = new Map<string, number>();
  for (const { method } of sent) counts.set(method, (counts.get(method) ?? 0) + 1);
  return [...counts].map(([method, count]) => (count > 1 ? `${method}×${count}` : method)).join(', ');
}

/** "A 0.4 → B + C×2 1.2": each step's methods and how long it was in flight (first sent to last answered), in ms. */
export function stepLine(sent: readonly Sent[]): string {
  return stepsOf(sent)
    .map((step) => {
      const ms = Math.max(...step.map((entry) => entry.end)) - step[0]!.start;
      // A command still unanswered when the call returned (one it did not wait for) has no end yet.
      return `${byMethod(step).replaceAll(', ', ' + ')} ${Number.isFinite(ms) ? ms.toFixed(1) : '…'}`;
    })
    .join(' → ');
}

/**
 * Every command sent on `connection` from now on lands in `sent`, with when it left and was answered, but those `omit`
 * names.
 */
export function recordSends(
  connection: CdpConnection,
  sent: Sent[],
  omit: (entry: Sent) => boolean = () => false,
): CdpConnection {
  const send = connection.send.bind(connection);
  connection.send = async <R>(method: string, params?: Record<string, unknown>, sessionId?: string): Promise<R> => {
    const entry: Sent = { method, start: performance.now(), end: Infinity };
    const libraryCall = LIBRARY_CALL.exec(String(params?.['functionDeclaration'] ?? ''))?.[1];
    if (libraryCall) entry.libraryCall = libraryCall;
    if (!omit(entry)) sent.push(entry);
    try {
      return await send<R>(method, params, sessionId);
    } finally {
      entry.end = performance.now();
    }
  };
  return connection;
}
