// Keeps the tabs the agent opens in one titled tab group per window, so the person sees at a glance which are the agent's.

const GROUP_TITLE = 'Chrome MCP';

// The group is found by its title rather than a stored id: it survives worker restarts and a person regrouping tabs.
let queue: Promise<unknown> = Promise.resolve();

/** Adds the tab to the window's "Chrome MCP" group, creating the group the first time; one at a time, so two tabs opened together share one group. */
export function addToAgentGroup(tab: { id: number; windowId: number }): Promise<void> {
  const run = queue.then(() => group(tab));
  queue = run.catch(() => undefined);
  return run;
}

async function group(tab: { id: number; windowId: number }): Promise<void> {
  const [existing] = await chrome.tabGroups.query({ windowId: tab.windowId, title: GROUP_TITLE });
  if (existing) {
    await chrome.tabs.group({ groupId: existing.id, tabIds: tab.id });
    return;
  }
  const groupId = await chrome.tabs.group({ tabIds: tab.id, createProperties: { windowId: tab.windowId } });
  await chrome.tabGroups.update(groupId, { title: GROUP_TITLE, color: 'blue' });
}
