// Host mode: Chrome starts `chrome-mcp native-host` (or the app with --native-host) for our extension's
// sendNativeMessage; it answers {type:'pairing'} with the pairing secret and the bridge port — or `revoked` while a
// revoke stands — refuses everything else, and ends when Chrome closes stdin.
import type { Readable, Writable } from 'node:stream';
import { hostRequest, type HostReply } from '../../../shared/protocol/native-host.js';
import { DEFAULT_BRIDGE_PORT } from '../../../shared/protocol/wire.js';
import type { Log } from '../log.js';
import { readLiveBridgeState } from './bridge-state.js';
import { ALLOWED_ORIGINS } from './host-manifest.js';
import { encodeMessage, MessageDecoder } from './native-messaging.js';
import { PairingRevokedError } from './revocation.js';
import type { SecretStore } from './secret-store.js';

export interface NativeHostOptions {
  dataDir: string;
  /**
   * argv's caller origin, with a trailing slash as in allowed_origins. Anyone can run the host with any argument, so
   * it proves nothing: allowed_origins in the manifest is what stops Chrome starting us for another extension, and
   * this check is defence in depth.
   */
  origin: string | undefined;
  store: SecretStore;
  input: Readable;
  output: Writable;
  log: Log;
}

async function answer(request: unknown, options: NativeHostOptions): Promise<HostReply> {
  if (!options.origin || !ALLOWED_ORIGINS.includes(options.origin)) return { error: 'origin_not_allowed' };
  if (!hostRequest.safeParse(request).success) return { error: 'unsupported_message' };
  try {
    const { secret } = await options.store.ensure();
    // A core that is not running (or crashed) has no port to give: the extension dials the default and retries.
    return { secret, port: readLiveBridgeState(options.dataDir)?.port ?? DEFAULT_BRIDGE_PORT };
  } catch (error) {
    options.log(`native host: no pairing secret to give: ${error instanceof Error ? error.message : String(error)}`);
    return { error: error instanceof PairingRevokedError ? 'revoked' : 'secret_unavailable' };
  }
}

/** Serves until the input ends, then resolves once every reply is written. */
export async function serveNativeHost(options: NativeHostOptions): Promise<void> {
  const decoder = new MessageDecoder();
  let replies: Promise<void> = Promise.resolve();
  const reply = (compute: () => Promise<HostReply>) => {
    // In order, one at a time: replies must come back in the order Chrome sent the requests.
    replies = replies.then(async () => {
      options.output.write(encodeMessage(await compute()));
    });
  };
  for await (const chunk of options.input as AsyncIterable<Buffer>) {
    for (const decoded of decoder.push(chunk)) {
      if ('message' in decoded) reply(() => answer(decoded.message, options));
      else
        reply(async () => ({ error: decoded.malformed === 'too_large' ? 'message_too_large' : 'unsupported_message' }));
    }
  }
  await replies;
  await new Promise<void>((resolve) => options.output.write('', () => resolve()));
}
