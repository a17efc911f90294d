// In-page facts about the current document that CDP does not report directly.

/** HTTP status of the response that loaded this document; 0 when there was none (about:blank, data:, cache-less). */
export function navigationStatus(): number {
  const entry = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  return entry?.responseStatus ?? 0;
}
