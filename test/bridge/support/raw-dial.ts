// A TCP connection that completes the WebSocket upgrade by hand, so a test can write bytes no WebSocket client would:
// broken frame headers, unmasked or reserved frames, a frame that never finishes.
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { EXTENSION_ORIGIN } from '../../../shared/protocol/extension-id.js';

export interface RawConnection {
  socket: Socket;
  /** Resolves when the server has ended the connection. */
  ended: Promise<number>;
}

export function rawUpgrade(port: number): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const ended = new Promise<number>((done) => socket.once('close', () => done(performance.now())));
    socket.on('error', () => undefined);
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      // Whatever the server sends from now on (a close frame) is read and ignored.
      socket.resume();
      if (head.startsWith('HTTP/1.1 101')) resolve({ socket, ended });
      else reject(new Error(`upgrade refused: ${head.split('\r\n')[0]}`));
    };
    socket.on('data', onData);
    socket.once('connect', () =>
      socket.write(
        [
          'GET / HTTP/1.1',
          `Host: 127.0.0.1:${port}`,
          `Origin: ${EXTENSION_ORIGIN}`,
          'Upgrade: websocket',
          'Connection: Upgrade',
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
          'Sec-WebSocket-Version: 13',
          '',
          '',
        ].join('\r\n'),
      ),
    );
  });
}
