// The panel's IPC adapter over a real control hub, with the bridge doing what the app's preload and main process do
// (plain data across, refusals as { code, message }): outputs and events are checked against the declaration, a
// refusal keeps its code, and the event stream replays, goes live, and unsubscribes when aborted.
import { afterAll, describe, expect, it } from 'vitest';
import { ControlError } from '../../shared/control/errors.js';
import type { ControlBridge } from '../../shared/control/ipc.js';
import { bridgeClient } from '../../renderer/connect/bridge-client.js';
import { makeHub, tempDataDirs } from '../control/support.js';

const dirs = tempDataDirs();
afterAll(() => dirs.cleanup());

/** A bridge over `hub` as the preload would hand it over: values cloned, errors flattened. */
function bridgeOver(hub: ReturnType<typeof makeHub>['hub']) {
  const listening = { count: 0 };
  const bridge: ControlBridge = {
    call: (name, input) =>
      hub.call(name as never, input).then(
        (output) => structuredClone(output),
        (error: unknown) =>
          Promise.reject(error instanceof ControlError ? { code: error.code, message: error.message } : error),
      ),
    subscribe(since, listener) {
      listening.count++;
      const unsubscribe = hub.subscribe((event) => listener(structuredClone(event)), since);
      return () => {
        listening.count--;
        unsubscribe();
      };
    },
  };
  return { bridge, listening };
}

describe("the panel's client over the app's IPC bridge", () => {
  it('returns checked outputs, and a refusal as a ControlError with its code', async () => {
    const { hub } = makeHub(dirs.make());
    const client = bridgeClient(bridgeOver(hub).bridge);
    expect(await client.call('interject', { message: 'Use the work account' })).toEqual({ queued: 1 });
    expect((await client.call('status')).interjections).toBe(1);
    const refused = await client
      .call('questions.answer', { id: 'q404', answer: 'once' })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ControlError);
    expect(refused).toMatchObject({ code: 'NOT_FOUND' });
    const bad = await client
      .call('policy.set', { rules: [{ site: 'bank.example/login', level: 'act' }], default: 'ask', downloads: false })
      .catch((error: unknown) => error);
    expect(bad).toMatchObject({ code: 'BAD_ARGS', message: expect.stringContaining('rules[0]') });
  });

  it('refuses an output that does not match the declaration, and names a dead bridge as INTERNAL', async () => {
    const odd = bridgeClient({ call: async () => ({ queued: 'many' }), subscribe: () => () => undefined });
    await expect(odd.call('interject', { message: 'hi' })).rejects.toThrow(/queued/);
    const dead = bridgeClient({
      call: async () => Promise.reject(new Error('window closed')),
      subscribe: () => () => undefined,
    });
    await expect(dead.call('status')).rejects.toMatchObject({
      code: 'INTERNAL',
      message: expect.stringContaining('window closed'),
    });
  });

  it('replays events after `since`, then delivers live ones, and unsubscribes when aborted', async () => {
    const { hub } = makeHub(dirs.make());
    const { bridge, listening } = bridgeOver(hub);
    const client = bridgeClient(bridge);
    await client.call('stop', { message: 'wait' });
    const abort = new AbortController();
    const seen: string[] = [];
    const reading = (async () => {
      for await (const event of client.events(0, abort.signal)) {
        seen.push(event.type);
        if (event.type === 'resume') abort.abort();
      }
    })();
    await expect.poll(() => seen).toEqual(['stop']);
    await client.call('resume');
    await reading;
    expect(seen).toEqual(['stop', 'resume']);
    expect(listening.count).toBe(0);
  });
});
