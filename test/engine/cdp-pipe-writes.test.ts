// The fallback's CDP pipe: what is sent in one turn leaves in one write, in order, each message NUL-ended; answers find
// their commands however the browser's bytes arrive, and a pipe that breaks answers every command with an error.
import { PassThrough, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CdpConnection } from '../../electron/core/fallback/cdp-connection.js';
import { ToolError } from '../../shared/protocol/errors.js';
import { startTestBrowser, type TestBrowser } from '../support/browser.js';

/** The browser's side of a pipe: every write the connection makes, and a stream to answer on. */
function fakePipe(fail = false): { writes: string[]; fromBrowser: PassThrough; connection: CdpConnection } {
  const writes: string[] = [];
  const toBrowser = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk.toString('utf8'));
      done(fail ? new Error('EPIPE') : undefined);
    },
  });
  const fromBrowser = new PassThrough();
  return { writes, fromBrowser, connection: CdpConnection.overPipe(toBrowser, fromBrowser) };
}

/** The commands one write carries, in order. */
function messagesOf(write: string): { id: number; method: string }[] {
  expect(write.endsWith('\0')).toBe(true);
  return write
    .slice(0, -1)
    .split('\0')
    .map((text) => JSON.parse(text) as { id: number; method: string });
}

const answer = (id: number, value: string) => `${JSON.stringify({ id, result: { value } })}\0`;

describe('CDP pipe writes', () => {
  it('sends commands of one turn in one write, in order, and routes their answers', async () => {
    const { writes, fromBrowser, connection } = fakePipe();
    const answers = ['A.one', 'B.two', 'C.three'].map((method) => connection.send<{ value: string }>(method));
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(1);
    const sent = messagesOf(writes[0]!);
    expect(sent.map((message) => message.method)).toEqual(['A.one', 'B.two', 'C.three']);
    // Answered out of order, split mid-message, with a malformed message between: each finds its own command.
    const [first, second, third] = sent.map((message) => message.id);
    const bytes = Buffer.from(answer(third!, 'c') + 'not json\0' + answer(first!, 'a') + answer(second!, 'b'));
    fromBrowser.write(bytes.subarray(0, 10));
    fromBrowser.write(bytes.subarray(10));
    expect((await Promise.all(answers)).map((result) => result.value)).toEqual(['a', 'b', 'c']);
    // A later turn writes on its own.
    const later = connection.send('D.four');
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes.map((write) => messagesOf(write).length)).toEqual([3, 1]);
    connection.close();
    await expect(later).rejects.toBeInstanceOf(ToolError);
  });

  it('answers every waiting command with an error when the browser side closes', async () => {
    const { fromBrowser, connection } = fakePipe();
    const waiting = [connection.send('A.one'), connection.send('B.two')];
    await new Promise((resolve) => setImmediate(resolve));
    fromBrowser.destroy();
    for (const sent of waiting) await expect(sent).rejects.toMatchObject({ code: 'BROWSER_CLOSED' });
    await expect(connection.send('C.three')).rejects.toMatchObject({ code: 'BROWSER_CLOSED' });
  });

  it('answers every command of a failed write with an error', async () => {
    const { writes, connection } = fakePipe(true);
    const waiting = [connection.send('A.one'), connection.send('B.two')];
    for (const sent of waiting) await expect(sent).rejects.toMatchObject({ code: 'BROWSER_CLOSED' });
    expect(writes).toHaveLength(1);
    expect(connection.isClosed).toBe(true);
  });

  it('answers a closed connection at once, before anything is written', async () => {
    const { writes, connection } = fakePipe();
    const queued = connection.send('A.one');
    connection.close();
    await expect(queued).rejects.toMatchObject({ code: 'BROWSER_CLOSED' });
    await expect(connection.send('B.two')).rejects.toMatchObject({ code: 'BROWSER_CLOSED' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes.join('')).not.toContain('B.two');
  });
});

describe('CDP pipe writes to Chromium', () => {
  let browser: TestBrowser;
  beforeAll(async () => {
    browser = await startTestBrowser();
  });
  afterAll(() => browser.close());

  it('reads many commands from one write and answers each', async () => {
    const { connection } = browser.browser;
    const { targetId } = await connection.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await connection.send<{ sessionId: string }>('Target.attachToTarget', {
      targetId,
      flatten: true,
    });
    const values = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        connection
          .send<{ result: { value: number } }>('Runtime.evaluate', { expression: String(index) }, sessionId)
          .then((answered) => answered.result.value),
      ),
    );
    expect(values).toEqual(Array.from({ length: 50 }, (_, index) => index));
    await connection.send('Target.closeTarget', { targetId });
  });
});
