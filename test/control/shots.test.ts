// Screenshot images for the panel: the newest SHOTS_KEPT calls' images are served by `activity.shot` over the real
// loopback server, older ones age out to NOT_FOUND, events carry only a `shot` flag, and neither the image nor the
// flag reaches the audit log. The byte budget keeps a few huge full-page PNGs from holding the memory a count allows.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { AUDIT_FILE } from '../../electron/core/control/audit-log.js';
import { ControlServer } from '../../electron/core/control/control-server.js';
import { Shots } from '../../electron/core/control/shots.js';
import type { Shot } from '../../shared/control/activity.js';
import { SHOTS_KEPT } from '../../shared/control/api.js';
import { createControlClient, loopbackOrigin, type ControlClient } from '../../shared/control/client.js';
import { makeHub, tempDataDirs, type HubSetup } from './support.js';

const dirs = tempDataDirs();
const servers: ControlServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
afterAll(() => dirs.cleanup());

async function connect(): Promise<HubSetup & { client: ControlClient }> {
  const setup = makeHub(dirs.make());
  const server = await ControlServer.start({ hub: setup.hub, dataDir: setup.dataDir, port: 0, log: () => undefined });
  servers.push(server);
  return { ...setup, client: createControlClient({ origin: loopbackOrigin(server.port), token: server.token }) };
}

/** A distinct image per call, recognisable in any file it must not reach. */
const image = (n: number): Shot => ({
  mimeType: n % 2 ? 'image/png' : 'image/jpeg',
  data: Buffer.from(`pixels of page ${n} `.repeat(40)).toString('base64'),
});
const screenshot = {
  client: 'claude',
  tool: 'screenshot',
  url: 'https://docs.example.com/',
  decision: 'allowed',
} as const;

describe('activity.shot', () => {
  it(`serves the newest ${SHOTS_KEPT} calls' images and answers NOT_FOUND once one has aged out`, async () => {
    const { hub, client } = await connect();
    const total = SHOTS_KEPT + 3;
    const ids = Array.from({ length: total }, (_, n) => hub.recordCall(screenshot, image(n))).map((event) =>
      event.type === 'call' ? event.id : '',
    );
    const plain = hub.recordCall({ ...screenshot, tool: 'click' });

    const { events } = await client.call('activity.list', { since: 0 });
    expect(
      events.filter((event) => event.type === 'call' && event.shot).map((event) => event.type === 'call' && event.id),
    ).toEqual(ids);
    expect(plain).not.toHaveProperty('shot');
    // No event holds the pixels: the activity log stays as small as it was.
    expect(JSON.stringify(events)).not.toContain(image(0).data);

    expect(await client.call('activity.shot', { id: ids.at(-1)! })).toEqual(image(total - 1));
    expect(await client.call('activity.shot', { id: ids[3]! })).toEqual(image(3));
    for (const id of ids.slice(0, 3)) {
      await expect(client.call('activity.shot', { id })).rejects.toMatchObject({
        code: 'NOT_FOUND',
        message: expect.stringContaining(`only the newest ${SHOTS_KEPT}`),
      });
    }
    // A call with no image, and an id no call had, are not found either.
    await expect(client.call('activity.shot', { id: plain.type === 'call' ? plain.id : '' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(client.call('activity.shot', { id: 'c9999' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(client.call('activity.shot', { id: '' })).rejects.toMatchObject({ code: 'BAD_ARGS' });
  });

  it('keeps the image and its flag out of the audit log', async () => {
    const { hub, client, dataDir } = await connect();
    hub.recordCall({ ...screenshot, ms: 30, summary: 'viewport 800×600 jpeg' }, image(7));
    expect((await client.call('audit.read', { tool: 'screenshot' })).entries).toEqual([
      {
        time: expect.any(String),
        client: 'claude',
        tool: 'screenshot',
        url: 'https://docs.example.com/',
        decision: 'allowed',
        ms: 30,
      },
    ]);
    await hub.flush();
    const text = readFileSync(join(dataDir, AUDIT_FILE), 'utf8');
    expect(text).not.toContain(image(7).data);
    expect(Object.keys(JSON.parse(text) as object)).toEqual(['time', 'client', 'tool', 'url', 'decision', 'ms']);
  });
});

describe('screenshot ring', () => {
  it('drops the oldest past the byte budget, and keeps no image that alone is past it', () => {
    const shots = new Shots(10, 100);
    const of = (chars: number): Shot => ({ mimeType: 'image/jpeg', data: 'A'.repeat(chars) });
    expect(shots.keep('c1', of(40))).toBe(true);
    expect(shots.keep('c2', of(40))).toBe(true);
    expect(shots.keep('c3', of(40))).toBe(true);
    expect(shots.get('c1')).toBeUndefined();
    expect(shots.get('c2')).toEqual(of(40));
    expect(shots.keep('c4', of(101))).toBe(false);
    expect(shots.get('c4')).toBeUndefined();
    expect(shots.get('c3')).toEqual(of(40));
  });
});
