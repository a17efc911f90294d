// resize: the viewport of a tab the agent opened, emulated in that tab alone (no window moves, no other tab changes).
import { ToolError } from '../../protocol/errors.js';
import type { AgentContext, OperationResult } from '../../protocol/operations.js';
import type { ResizeArgs } from '../../tools/args.js';
import type { TabSession } from '../tab-session.js';

/**
 * Emulation rather than window bounds: a window holds the person's other tabs too, and a headless one has no bounds
 * that change the page's. The override lasts while the debugger stays attached; the page sees a resize event.
 */
export async function resize(session: TabSession, agent: AgentContext, args: ResizeArgs): Promise<OperationResult> {
  const tab = await session.use(agent, args.tab);
  if (!session.mayReshape(tab.hostId)) {
    throw new ToolError('NOT_OWNED', `${tab.handle} is the person's own tab: its size stays as they set it.`, {
      next: 'Open a tab with `tab_new` (or `tab_use`) and resize that one.',
    });
  }
  await tab.page.cdp.send('Emulation.setDeviceMetricsOverride', {
    width: args.width,
    height: args.height,
    deviceScaleFactor: 0,
    mobile: false,
  });
  return {
    text: `resized ${tab.handle} to ${args.width}x${args.height}`,
    data: { tab: tab.handle, width: args.width, height: args.height },
  };
}
