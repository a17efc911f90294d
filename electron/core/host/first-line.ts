// The first line of a fresh socket connection (the relay's token, the core's answer), read with a size limit and a
// deadline; whatever followed the line is left unread on the socket, which is left paused for the next reader.
import type { Socket } from 'node:net';

export interface FirstLineLimits {
  /** The line and its newline together. */
  maxBytes: number;
  timeoutMs: number;
}

const NEWLINE = 0x0a;

/** The caller keeps its own `error` listener on the socket: this one is gone once the line is read. */
export function readFirstLine(socket: Socket, { maxBytes, timeoutMs }: FirstLineLimits): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const settle = (outcome: { line: string; rest: Buffer } | { error: Error }): void => {
      clearTimeout(timer);
      // Paused and unhooked before anything is put back: an unshift into a flowing stream would be emitted at once,
      // into this reader instead of the next.
      socket.pause();
      socket.off('data', onData).off('end', onEnd).off('close', onEnd).off('error', onError);
      if ('error' in outcome) return reject(outcome.error);
      if (outcome.rest.length > 0) socket.unshift(outcome.rest);
      resolve(outcome.line);
    };
    const onData = (chunk: Buffer): void => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf(NEWLINE);
      if (end >= maxBytes || (end < 0 && buffered.length >= maxBytes))
        return settle({ error: new Error(`first line longer than ${maxBytes} bytes`) });
      if (end >= 0) settle({ line: buffered.subarray(0, end).toString('utf8'), rest: buffered.subarray(end + 1) });
    };
    const onEnd = (): void => settle({ error: new Error('closed before its first line') });
    const onError = (error: Error): void => settle({ error });
    const timer = setTimeout(() => settle({ error: new Error(`no first line within ${timeoutMs} ms`) }), timeoutMs);
    socket.on('data', onData).on('end', onEnd).on('close', onEnd).on('error', onError);
    // A socket an earlier read left paused flows again only when asked, whatever listens to it.
    socket.resume();
  });
}
