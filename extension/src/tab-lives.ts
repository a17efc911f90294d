// Whether a tab is still open: what a restarted worker asks of each tab its records name, as it heard no close meanwhile.
export function tabLives(tabId: number): Promise<boolean> {
  return chrome.tabs.get(tabId).then(
    () => true,
    () => false,
  );
}
