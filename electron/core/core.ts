// The core, assembled: the bridge the extension dials, the fallback browser, per-call backend selection, and the
// status they add up to. The same assembly serves `chrome-mcp` on stdio and, later, the tray app.
import { policyFromFlags } from '../../shared/policy/flags.js';
import { parseSitePattern } from '../../shared/policy/pattern.js';
import type { Policy } from '../../shared/policy/policy.js';
import type { AgentContext, Executor } from '../../shared/protocol/operations.js';
import { BackendManager } from './backend/backend-manager.js';
import { BridgeServer } from './bridge/bridge-server.js';
import { extensionBackend } from './bridge/extension-executor.js';
import { type ExtensionSide, NoBridge } from './bridge/extension-side.js';
import { EXTENSION_DIR } from './package-root.js';
import type { Config } from './config.js';
import { ControlHub } from './control/hub.js';
import { ControlServer } from './control/control-server.js';
import { bridgePairing } from './control/pairing-control.js';
import { PolicyStore } from './control/policy-store.js';
import type { FallbackOptions } from './fallback/fallback-executor.js';
import { withFiles } from './files/files-executor.js';
import { type FileFolders, prepareFolders } from './files/folders.js';
import { lazyFallback, type LazyFallback } from './lazy-fallback.js';
import type { Log } from './log.js';
import { AgentRegistry } from './mcp/agent-registry.js';
import type { ExtensionStatus, StatusReport } from './mcp/status.js';
import { statusReport } from './mcp/status.js';
import { createBridgeAuth, type PairingAuth } from './pairing/bridge-auth.js';
import { BridgeStateFile } from './pairing/bridge-state.js';
import { ensurePrivateDir } from './pairing/private-files.js';
import { SecretStore } from './pairing/secret-store.js';
import type { ToolCap } from '../../shared/policy/tool-caps.js';

export interface Core {
  executor: Executor;
  /** The person's side: policy, questions, oversight, activity and audit; the panel reaches it over `controlServer`. */
  control: ControlHub;
  controlServer: ControlServer;
  /** The MCP sessions served from this core, however they reach it (stdio, the core socket). */
  agents: AgentRegistry;
  /** The opt-in tool capabilities its sessions list (`--caps`). */
  caps: readonly ToolCap[];
  /** Where uploads may come from and downloads go. */
  files: FileFolders;
  /** `agent`: the MCP session asking, whose own current tab the report shows (none: the panel, the tab used last). */
  status(agent?: AgentContext): Promise<StatusReport>;
  /**
   * A client has listed the tools, so calls are coming: where the fallback is sure to serve them (`--browser
   * fallback`, or auto with no extension paired), it gets ready now rather than on the first call.
   */
  warm(): void;
  close(): Promise<void>;
}

/** What the core hands a fallback it did not make itself: the policy it must enforce, its log, the person's Esc. */
export type FallbackDeps = Pick<FallbackOptions, 'log' | 'policy' | 'onPersonStop' | 'onHeldGone'>;

export interface CoreOptions {
  /** A fallback browser other than the launched Chrome/Chromium (the tray app's own Chromium); absent, that one. */
  fallback?: (deps: FallbackDeps) => LazyFallback;
  /** Where the unpacked extension is, when not in the package (the packaged app ships it among its resources). */
  extensionDir?: string;
}

export async function startCore(config: Config, log: Log, options: CoreOptions = {}): Promise<Core> {
  ensurePrivateDir(config.dataDir);
  prepareFolders(config.files);
  // Throws PolicyFormatError naming the file's mistake before anything listens.
  const store = new PolicyStore({
    file: config.policyFile,
    required: config.policyFileRequired,
    grants: policyFromFlags(config.grants).grants,
  });
  // One for the bridge and the control API both: a revoke and a code redemption must queue behind each other.
  const auth = createBridgeAuth({ dataDir: config.dataDir, log });
  // Each client, once it has introduced itself, and its leaving reach the panel and the tray as activity.
  const agents = new AgentRegistry({ onClient: (change, client) => control.recordClient(change, client) });
  const control = new ControlHub({
    dataDir: config.dataDir,
    policy: store,
    log,
    // A held act lives in the backend that held it; the manager routes the decision there.
    releaseHeld: async (id, release) => {
      await manager.run('release_held', { id, release }, { progress: () => undefined });
    },
    // The panel's Connection screen: which backend serves, the extension link, the fallback browser.
    statusExtra: async () => ({ ...(await status()) }),
    clients: () => agents.clients(),
    // Only control calls reach the bridge, and the control server starts after it.
    pairing: bridgePairing({
      dataDir: config.dataDir,
      log,
      auth,
      bridge: () => bridge,
      extensionDir: options.extensionDir ?? EXTENSION_DIR,
    }),
  });
  const policy = (): Policy => control.policy();
  // Esc in a driven tab is the person's Stop, from either backend.
  const personStop = (message: string): void => void control.stop(message);
  // A backend that goes away takes the acts it held with it: the person's cards say so at once, not when Send is pressed.
  const heldGone = (id: string, why: string): void => control.expireHeld(id, why);
  const fallback = options.fallback
    ? options.fallback({ log, policy, onPersonStop: personStop, onHeldGone: heldGone })
    : lazyFallback({
        executablePath: config.executablePath,
        headless: config.headless,
        profileDir: config.profileDir,
        extraArgs: config.browserArgs,
        log,
        policy,
        onPersonStop: personStop,
        onHeldGone: heldGone,
      });
  const bridge = await startBridge(config, log, policy, auth);
  const stateFile = new BridgeStateFile(config.dataDir);
  const listening = bridge.listening();
  if ('port' in listening) stateFile.started(listening.port);
  bridge.on('connected', (link) => {
    log(`extension connected (Chrome ${link.identity.chrome}, session ${link.identity.session})`);
    stateFile.extensionConnected(true);
    control.recordLink('connected', link.identity.chrome);
  });
  bridge.on('otherVersion', (v) => stateFile.otherVersion(v));
  bridge.on('disconnected', (link, why) => {
    log(`extension disconnected: ${why}`);
    control.recordLink('disconnected', link.identity.chrome);
    stateFile.extensionConnected(bridge.link() !== undefined);
  });
  // Every change reaches the extension at once; the fallback's engine reads the store on every check.
  control.onPolicyChange(() => bridge.policyChanged());
  bridge.on('personStop', personStop);
  const controlServer = await ControlServer.start({
    hub: control,
    dataDir: config.dataDir,
    port: config.controlPort,
    log,
  });
  // The panel is ours: the agent never reads or acts on it, whatever the rules say.
  store.setSelf([
    parseSitePattern(`127.0.0.1:${controlServer.port}`),
    parseSitePattern(`localhost:${controlServer.port}`),
  ]);
  const extension = extensionBackend(bridge, heldGone);
  const manager = new BackendManager(config.browser, extension, fallback.executor);
  const secrets = new SecretStore(config.dataDir);
  let warmed = false;

  const extensionStatus = (): ExtensionStatus => {
    const link = bridge.link();
    return {
      connected: link !== undefined,
      bridge: bridge.listening(),
      pairing: secrets.location() ?? 'none',
      ...(link ? { chrome: link.identity.chrome } : {}),
    };
  };

  const status = async (agent?: AgentContext): Promise<StatusReport> =>
    statusReport({
      choice: config.browser,
      lastCall: manager.lastSelection(),
      extension: extensionStatus(),
      fallback: await fallback.state(agent),
    });

  return {
    executor: withFiles(manager, config.files),
    control,
    controlServer,
    agents,
    caps: config.caps,
    files: config.files,
    status,
    warm: () => {
      if (warmed) return;
      warmed = true;
      const paired = secrets.location() !== undefined;
      if (config.browser === 'fallback' || (config.browser === 'auto' && !paired)) fallback.warm?.();
    },
    async close() {
      stateFile.stopped();
      await Promise.all([fallback.close(), bridge.close(), controlServer.close(), control.close()]);
    },
  };
}

/** The bridge, or why it could not listen: the fallback keeps serving when another core holds the port. */
async function startBridge(config: Config, log: Log, policy: () => Policy, auth: PairingAuth): Promise<ExtensionSide> {
  if (config.browser === 'fallback') return new NoBridge('off (--browser fallback)');
  try {
    const bridge = await BridgeServer.start({ port: config.port, auth, log, policy });
    log(`bridge listening on 127.0.0.1:${bridge.port}`);
    return bridge;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log(`bridge not listening: ${message}; the extension cannot connect to this server`);
    return new NoBridge(message);
  }
}
