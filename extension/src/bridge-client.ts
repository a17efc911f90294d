// The worker's side of the link to the core: finds credentials, dials, re-dials after a drop with backoff, asks the
// native host again when a secret is refused, backs off from a server that cannot prove it is the app, and pairs with
// a code the person typed.
import { CLOSE_CODES } from '../../shared/protocol/wire.js';
import { BridgeConnection, type ConnectionEnd, type ConnectionHooks, type Greeting } from './bridge-connection.js';
import { askNativeHost, loadCredentials, storeCredentials, type Credentials } from './credentials.js';
import { armAlarm, retryDelay } from './link-timers.js';
import { readLinkStatus, writeLinkStatus, type LinkStatus } from './link-status.js';

export interface PairResult {
  ok: boolean;
  message: string;
}

const PAIR_TIMEOUT_MS = 10_000;

/**
 * After a link's end, dial again now: `ask` as any wake-up does (after a refused secret that asks the native host for
 * a new one), `force` even with a secret refused before; or not now (undefined).
 */
type Redial = 'ask' | 'force' | undefined;

export class BridgeClient {
  private connection: BridgeConnection | undefined;
  private dialing: Promise<void> | undefined;
  /** How the last link ended, while that is still being judged: no wake-up dials before the verdict is stored. */
  private judging: Promise<void> | undefined;
  private retries = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** The native host was asked for fresh credentials in this outage (the app may have moved to another port). */
  private refreshed = false;
  private settlePair: ((result: PairResult) => void) | undefined;

  constructor(private readonly startSession: ConnectionHooks['startSession']) {}

  /**
   * Dials unless a link is up or being made; called on every wake-up (start, alarm, popup). A refused secret or a
   * link taken over by another browser is dialled again only when something changed, or when `force`d by the person.
   */
  connect(force = false): Promise<void> {
    // A link just refused must be marked so before anything dials, or a wake-up would dial with the refused secret.
    if (this.judging) return this.judging.then(() => this.connect(force));
    if (this.connection) return Promise.resolve();
    this.stopRetry();
    // A dial already under way may be one about to give up (its secret was refused, and nothing has changed): the
    // person's own Reconnect must still dial once it is done, not be folded into it.
    if (this.dialing && force) return this.dialing.then(() => this.connect(true));
    // A dial never rejects: every failure ends in a link status and, where it helps, a retry.
    this.dialing ??= this.dial(force)
      .catch((error: unknown) => writeLinkStatus({ state: 'disconnected', detail: `Could not dial: ${String(error)}` }))
      .finally(() => (this.dialing = undefined));
    return this.dialing;
  }

  /** Credentials changed under us (the popup, a test, the native host): a link not yet welcomed starts over with them. */
  async credentialsChanged(): Promise<void> {
    // A dial in progress may have read the credentials from before the change: let it finish, then judge.
    await this.dialing;
    const current = this.connection;
    // A pairing connection stores the secret it was given and is welcomed on the same socket: leave it be.
    if (current?.welcomed || current?.pairing) return;
    const { port, secret } = await loadCredentials();
    if (current && current.port === port && current.secret === secret) return;
    current?.close();
    this.connection = undefined;
    await this.connect(true);
  }

  /** Dials with a one-time code instead of the secret; the core answers with the long-lived secret, which we keep. */
  async pair(code: string): Promise<PairResult> {
    this.settlePair?.({ ok: false, message: 'A newer pairing attempt replaced this one.' });
    this.stopRetry();
    this.connection?.close();
    this.connection = undefined;
    const { port } = await loadCredentials();
    return new Promise<PairResult>((resolve) => {
      const timer = setTimeout(
        () => finish({ ok: false, message: `The app did not answer on port ${port}.` }),
        PAIR_TIMEOUT_MS,
      );
      const finish = (result: PairResult) => {
        clearTimeout(timer);
        if (this.settlePair === finish) this.settlePair = undefined;
        resolve(result);
      };
      this.settlePair = finish;
      this.open(port, { kind: 'pair', code });
    });
  }

  private async dial(force: boolean): Promise<void> {
    const [status, stored] = await Promise.all([readLinkStatus(), loadCredentials()]);
    if (status.state === 'replaced' && !force) return;
    let { port, secret } = stored;
    if (
      secret === undefined ||
      status.state === 'unauthorized' ||
      status.state === 'revoked' ||
      status.state === 'impostor'
    ) {
      // No secret yet, or the last one was refused: only a secret the native host has and we have not tried helps.
      const fromHost = await askNativeHost();
      if (fromHost === 'revoked') {
        // The person pressed Revoke in the app: dialling with the old secret is pointless, and saying why is the point.
        await writeLinkStatus({ state: 'revoked', port, detail: REVOKED });
        return;
      }
      if (fromHost && !sameCredentials(fromHost, stored)) {
        await storeCredentials(fromHost);
        ({ port, secret } = fromHost);
      } else if (secret === undefined || !(force || impostorDue(status))) {
        if (secret === undefined) await writeLinkStatus({ state: 'not_paired', port, detail: NOT_PAIRED });
        return;
      }
    }
    if (!this.connection) this.open(port, { kind: 'hello', secret });
  }

  private open(port: number, greeting: Greeting): void {
    void writeLinkStatus({ state: 'connecting', port });
    let paired = false;
    const connection = new BridgeConnection(port, greeting, {
      startSession: this.startSession,
      welcomed: () => {
        this.retries = 0;
        this.refreshed = false;
        void armAlarm(true);
        void writeLinkStatus({ state: 'connected', port });
      },
      paired: (secret) => {
        paired = true;
        void storeCredentials({ port, secret });
        this.settlePair?.({ ok: true, message: 'Paired.' });
      },
      closed: (end) => {
        if (this.connection === connection) this.connection = undefined;
        // A status that could not be stored leaves the next dial to the alarm.
        const judged = this.closed(
          end,
          greeting.kind === 'pair' && !end.welcomed ? (paired ? 'paired' : 'refused') : 'link',
          port,
        ).catch(() => undefined);
        this.judging = judged.then((next) => {
          this.judging = undefined;
          if (next) void this.connect(next === 'force');
        });
      },
    });
    this.connection = connection;
  }

  /**
   * Stores what a link's end means and returns whether to dial again now (`force`: even with a secret refused
   * before). `pairing` says how a pairing connection ended before any welcome; 'link' is every other connection.
   */
  private async closed(end: ConnectionEnd, pairing: 'paired' | 'refused' | 'link', port: number): Promise<Redial> {
    if (pairing === 'paired') return 'force';
    if (pairing === 'refused') {
      this.settlePair?.({ ok: false, message: pairRefusal(end, port) });
      // An older secret, if there is one, still gets its normal hello.
      return 'force';
    }
    if (end.serverFailedProof) return this.impostor(port);
    const refused = end.unauthorized ?? (end.code === CLOSE_CODES.unauthorized ? 'bad_secret' : undefined);
    if (end.code === CLOSE_CODES.replaced || refused === 'replaced') {
      await armAlarm(false);
      await writeLinkStatus({
        state: 'replaced',
        port,
        detail: 'Another browser with the extension took over the link to the app.',
      });
      return undefined;
    }
    if (refused === 'bad_version' || refused === 'bad_frame') {
      // The app could not read our hello (another wire version or build): the secret was not even checked, so the slow
      // alarm keeps dialling with it, and links as soon as the older end is updated.
      await armAlarm(false);
      await writeLinkStatus({ state: 'other_version', port, detail: OTHER_VERSION });
      return undefined;
    }
    if (refused === 'bad_secret' || refused === 'bad_origin') {
      // The app may have been paired again since: the native host is asked once more before giving up.
      await armAlarm(false);
      await writeLinkStatus({ state: 'unauthorized', port, detail: REFUSED });
      return 'ask';
    }
    await this.retryLater(end, port);
    return undefined;
  }

  /**
   * What answered on the port could not prove it holds our secret: it learnt nothing. It may not be the app, or the
   * app was paired again since; so, as after a refused secret, the native host is asked once (a new secret or port
   * from it dials at once), and otherwise the worker does not dial there again until the credentials change, the
   * person presses Reconnect, or IMPOSTOR_RETRY_MS have passed (the app may have taken its port back by then).
   */
  private async impostor(port: number): Promise<Redial> {
    await armAlarm(false);
    await writeLinkStatus({ state: 'impostor', port, detail: impostorDetail(port), since: Date.now() });
    return 'ask';
  }

  private async retryLater(end: ConnectionEnd, port: number): Promise<void> {
    if (!end.opened && !this.refreshed) {
      // Nothing listens there: the app may have restarted on another port. The native host knows.
      this.refreshed = true;
      const [fromHost, stored] = await Promise.all([askNativeHost(), loadCredentials()]);
      if (typeof fromHost === 'object' && !sameCredentials(fromHost, stored)) await storeCredentials(fromHost);
    }
    const delay = retryDelay(this.retries++);
    if (delay === undefined) {
      await armAlarm(false);
      await writeLinkStatus({
        state: 'disconnected',
        port,
        detail: 'The app is not answering; trying again every 30 s.',
      });
      return;
    }
    await writeLinkStatus({
      state: 'connecting',
      port,
      detail: end.opened ? 'The link dropped; reconnecting.' : 'Waiting for the app.',
    });
    this.retryTimer = setTimeout(() => void this.connect(), delay);
  }

  private stopRetry(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }
}

const NOT_PAIRED =
  'Not paired yet. In a terminal, run chrome-mcp install-native-host (pairs by itself), or chrome-mcp pair and enter its code below.';
const REVOKED =
  "The pairing was revoked in the Chrome MCP app, so this browser stays unpaired. To pair again, press Pair on the app's Connection screen (or run chrome-mcp pair): it then reconnects by itself, or enter the code below.";

/** How long the worker leaves a server that failed its proof alone, unless the person presses Reconnect. */
const IMPOSTOR_RETRY_MS = 5 * 60_000;

function impostorDetail(port: number): string {
  return (
    `Something on port ${port} answered but could not prove it is the Chrome MCP app, so this browser told it nothing and ` +
    'obeys none of it. If the app is not running, another program holds its port (`chrome-mcp doctor` says which); if the app ' +
    'was paired again, pair this browser again. Trying again in 5 minutes, or now with Reconnect.'
  );
}

function impostorDue(status: LinkStatus): boolean {
  return status.state === 'impostor' && Date.now() - (status.since ?? 0) >= IMPOSTOR_RETRY_MS;
}

function pairRefusal(end: ConnectionEnd, port: number): string {
  if (!end.opened) return `Nothing answers on port ${port}: is the app running?`;
  // A wrong code and a server that is not the app look the same from here: neither could prove it knows the code.
  if (end.serverFailedProof) {
    return (
      `The app on port ${port} could not prove it knows this code: check it, or get a new one with \`chrome-mcp pair\`. ` +
      `If the code is right, another program may hold port ${port} (\`chrome-mcp doctor\`). Nothing was sent to it.`
    );
  }
  return 'The app refused the code: check it, or get a new one with `chrome-mcp pair`.';
}

function sameCredentials(a: Credentials, b: Credentials): boolean {
  return a.port === b.port && a.secret === b.secret;
}

const REFUSED = 'The app refused this browser: pair again (`chrome-mcp pair`, then enter the code here).';
const OTHER_VERSION =
  'The app and the extension are different versions: update the one that is older. It links again by itself once both are current, no pairing needed.';
