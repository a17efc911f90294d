// doctor on the wire version (v2 since mutual authentication): an extension the core refused as another version, or
// a core that refused doctor's own hello so, and the next step. The stored secret works across the bump: no pairing.
import { EXTENSION_DIR } from '../../core/package-root.js';
import type { BridgeState } from '../../core/pairing/bridge-state.js';
import { WIRE_VERSION } from '../../../shared/protocol/wire.js';
import type { Finding } from './doctor-finding.js';

const RELINKS = 'links again by itself, no pairing';

/** The extension is not linked and the core refused it as wire `v`: which end to update. */
export function refusedExtension(refused: NonNullable<BridgeState['otherVersion']>): Finding {
  const older = refused.v < WIRE_VERSION;
  return {
    ok: false,
    text: `extension: refused since ${refused.at}: it speaks wire v${refused.v}, this core v${WIRE_VERSION} (the ${older ? 'extension' : 'app'} is older)`,
    fix: older
      ? `update the extension: Reload it on chrome://extensions (Load unpacked: ${EXTENSION_DIR}); it ${RELINKS}`
      : `update chrome-mcp (the app), then restart your MCP client; it ${RELINKS}`,
  };
}

/** What listens on `port` refused doctor's hello as another wire version: a chrome-mcp core from before or after ours. */
export function otherVersionCore(port: number): Finding {
  return {
    ok: false,
    text: `bridge: 127.0.0.1:${port} refused this doctor's wire v${WIRE_VERSION} hello: another version of chrome-mcp runs there`,
    fix: `update the older one and restart it (quit the app, or restart your MCP client); the extension ${RELINKS}`,
  };
}
