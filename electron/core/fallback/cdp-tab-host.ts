// TabHost over a browser-level CDP socket: page targets are tabs, each attached once with flattened child sessions.
import type { Cdp, CdpEvent } from '../../../shared/engine/cdp.js';
import type { HostTab, TabHost } from '../../../shared/engine/tab-host.js';
import { ToolError } from '../../../shared/protocol/errors.js';
import type { CdpConnection } from './cdp-connection.js';

interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
  title: string;
}

/** One attached tab: its own session plus the child sessions Chrome auto-attaches under it. */
class AttachedTab implements Cdp {
  private readonly children = new Set<string>();
  private readonly listeners = new Set<(event: CdpEvent) => void>();
  private readonly unsubscribe: () => void;

  constructor(private readonly connection: CdpConnection, readonly sessionId: string, private readonly onGone: () => void) {
    this.unsubscribe = connection.on((event) => this.route(event));
  }

  send<R>(method: string, params?: Record<string, unknown>, sessionId?: string): Promise<R> {
    return this.connection.send<R>(method, params, sessionId ?? this.sessionId);
  }

  on(listener: (event: CdpEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  dispose(): void {
    this.unsubscribe();
    this.listeners.clear();
  }

  private route(event: CdpEvent): void {
    if (event.method === 'Connection.closed') return this.emit({ method: 'Inspector.detached', params: { reason: 'browser closed' } });
    const mine = event.sessionId === this.sessionId;
    const child = event.sessionId !== undefined && this.children.has(event.sessionId);
    if (!mine && !child) {
      if (event.method === 'Target.detachedFromTarget' && event.params['sessionId'] === this.sessionId) {
        this.emit({ method: 'Inspector.detached', params: { reason: 'target closed' } });
        this.onGone();
      }
      return;
    }
    if (event.method === 'Target.attachedToTarget') this.children.add(String(event.params['sessionId']));
    if (event.method === 'Target.detachedFromTarget') this.children.delete(String(event.params['sessionId']));
    this.emit(mine ? { method: event.method, params: event.params } : event);
  }

  private emit(event: CdpEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}

export class CdpTabHost implements TabHost {
  private readonly attached = new Map<string, Promise<AttachedTab>>();
  private activeId: string | undefined;

  constructor(private readonly connection: CdpConnection) {}

  async list(): Promise<HostTab[]> {
    const { targetInfos } = await this.connection.send<{ targetInfos: TargetInfo[] }>('Target.getTargets', { filter: [{ type: 'page' }] });
    const pages = targetInfos.filter((info) => info.type === 'page');
    if (!pages.some((info) => info.targetId === this.activeId)) this.activeId = pages[0]?.targetId;
    return pages.map((info) => this.toTab(info));
  }

  async create(url: string, opts: { focus: boolean }): Promise<HostTab> {
    const { targetId } = await this.connection.send<{ targetId: string }>('Target.createTarget', { url, background: !opts.focus });
    if (opts.focus) this.activeId = targetId;
    const { targetInfo } = await this.connection.send<{ targetInfo: TargetInfo }>('Target.getTargetInfo', { targetId });
    return this.toTab(targetInfo);
  }

  async close(id: string): Promise<void> {
    await this.connection.send('Target.closeTarget', { targetId: id }).catch(() => {
      throw new ToolError('TAB_NOT_FOUND');
    });
    this.forget(id);
  }

  async activate(id: string): Promise<void> {
    await this.connection.send('Target.activateTarget', { targetId: id });
    this.activeId = id;
  }

  cdp(id: string): Promise<Cdp> {
    let tab = this.attached.get(id);
    if (!tab) {
      tab = this.attach(id);
      this.attached.set(id, tab);
      tab.catch(() => this.attached.delete(id));
    }
    return tab;
  }

  private async attach(id: string): Promise<AttachedTab> {
    const { sessionId } = await this.connection
      .send<{ sessionId: string }>('Target.attachToTarget', { targetId: id, flatten: true })
      .catch(() => {
        throw new ToolError('TAB_NOT_FOUND');
      });
    return new AttachedTab(this.connection, sessionId, () => this.forget(id));
  }

  private forget(id: string): void {
    const tab = this.attached.get(id);
    this.attached.delete(id);
    void tab?.then((attached) => attached.dispose(), () => undefined);
  }

  private toTab(info: TargetInfo): HostTab {
    return { id: info.targetId, url: info.url, title: info.title, active: info.targetId === this.activeId };
  }
}
