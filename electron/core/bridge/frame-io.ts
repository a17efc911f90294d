// Frames in and out of one socket: the text of a received message (binary is never a frame of ours), and one
// core frame serialised per message.
import type { RawData, WebSocket } from 'ws';
import type { z } from 'zod';
import { CLOSE_CODES, type CoreFrame, type unauthorizedFrame } from '../../../shared/protocol/wire.js';

export type UnauthorizedReason = z.infer<typeof unauthorizedFrame>['reason'];

export function frameText(data: RawData, isBinary: boolean): string | undefined {
  if (isBinary) return undefined;
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  return Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data).toString('utf8');
}

/** A socket already closing drops the frame quietly (ws reports it to no one without a callback): the close says enough. */
export function sendFrame(socket: WebSocket, frame: CoreFrame): void {
  socket.send(JSON.stringify(frame));
}

/** Turns away a connection not (or no longer) admitted: `unauthorized` says why, then the socket closes with 4401. */
export function refuseConnection(socket: WebSocket, reason: UnauthorizedReason): void {
  sendFrame(socket, { type: 'unauthorized', reason });
  socket.close(CLOSE_CODES.unauthorized, reason);
}
