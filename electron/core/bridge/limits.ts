// Bounds on what a peer can make the bridge hold or wait for: frame size and fragments, unauthenticated
// connections and their bytes, queued output, and the handshake and heartbeat clocks.
import type { ServerOptions } from 'ws';
import { MAX_FRAME_BYTES } from '../../../shared/protocol/wire.js';

/** Loopback only: any local process can dial it, nothing off the machine can. */
export const BRIDGE_HOST = '127.0.0.1';

export const DEFAULT_HEARTBEAT_MS = 15_000;
export const DEFAULT_HELLO_TIMEOUT_MS = 5_000;

/** Connections still owing a hello; beyond this, new ones are refused at upgrade so a flood cannot pile up. */
export const MAX_UNAUTHENTICATED = 16;
/** A hello or pair frame is a few hundred bytes; an unauthenticated peer may not make us buffer a 32 MiB frame. */
export const PRE_AUTH_MAX_BYTES = 64 * 1024;
/** Output queued to the extension beyond this means it is not reading: refuse new calls rather than queue without end. */
export const MAX_BUFFERED_OUT_BYTES = 8 * 1024 * 1024;

// closeTimeout is a ws 8.23 option @types/ws does not list yet: how long a close handshake may take before the socket
// is destroyed (default 30 s), so a peer that stops reading cannot hold a closed connection open.
export const WS_SERVER_OPTIONS: ServerOptions & { closeTimeout: number } = {
  noServer: true,
  maxPayload: MAX_FRAME_BYTES,
  // A 32 MiB frame in 4096 fragments averages 8 KiB each; Chrome sends large messages in far bigger pieces.
  maxFragments: 4096,
  // Socket chunks held while one frame completes: 32 MiB arriving 2 KiB at a time still fits.
  maxBufferedChunks: 16_384,
  // No compression: a small deflated frame could inflate past every bound above.
  perMessageDeflate: false,
  // Invalid UTF-8 in a text frame would make ws fail the whole connection; decoded with replacement characters
  // instead, it is one more unreadable frame that the link drops while it keeps serving.
  skipUTF8Validation: true,
  closeTimeout: 1_000,
};
