// The ledger every CDP transport keeps of its calls in flight: each settles once, by its answer, its session's
// detach or the transport's end; a send that throws fails its call.
import { describe, expect, it } from 'vitest';
import { CdpCommandError } from '../../shared/engine/cdp.js';
import { PendingCommands } from '../../shared/engine/pending-commands.js';

function sent(pending: PendingCommands, method: string, sessionId?: string) {
  let id = 0;
  const promise = pending.track(method, sessionId, (given) => {
    id = given;
  });
  return { id, promise };
}

describe('PendingCommands', () => {
  it('hands each command its own id and settles it by that id once', async () => {
    const pending = new PendingCommands();
    const first = sent(pending, 'Page.enable');
    const second = sent(pending, 'Page.navigate');
    expect(first.id).not.toBe(second.id);
    pending.resolve(second.id, { frameId: 'f' });
    pending.reject(first.id, (method) => new CdpCommandError(method, 'refused'));
    pending.resolve(first.id, {});
    await expect(second.promise).resolves.toEqual({ frameId: 'f' });
    await expect(first.promise).rejects.toEqual(new CdpCommandError('Page.enable', 'refused'));
  });

  it('fails the commands of a detached session, and only those; a late answer to them changes nothing', async () => {
    const pending = new PendingCommands();
    const child = sent(pending, 'DOM.getDocument', 'child-1');
    const page = sent(pending, 'Page.getFrameTree');
    pending.failSession('child-1');
    pending.resolve(child.id, {});
    await expect(child.promise).rejects.toEqual(
      new CdpCommandError('DOM.getDocument', 'Session with given id not found (it detached)'),
    );
    pending.resolve(page.id, { frameTree: {} });
    await expect(page.promise).resolves.toEqual({ frameTree: {} });
  });

  it('fails everything in flight with the error the transport words for each method', async () => {
    const pending = new PendingCommands();
    const calls = [sent(pending, 'Runtime.evaluate'), sent(pending, 'DOM.focus', 'child-1')];
    pending.failAll((method) => new CdpCommandError(method, 'Target closed'));
    await expect(calls[0]!.promise).rejects.toEqual(new CdpCommandError('Runtime.evaluate', 'Target closed'));
    await expect(calls[1]!.promise).rejects.toEqual(new CdpCommandError('DOM.focus', 'Target closed'));
  });

  it('fails a command whose send throws (a closed socket, arguments the API refuses)', async () => {
    const pending = new PendingCommands();
    const refused = pending.track('Page.navigate', undefined, () => {
      throw new Error('Invalid parameters');
    });
    await expect(refused).rejects.toThrow('Invalid parameters');
  });
});
