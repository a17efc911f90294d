// The `status` tool's answer: which backend serves calls, the browser it drives, the current tab.
import type { OperationResult } from '../../../shared/protocol/operations.js';
import type { FallbackState } from '../fallback/fallback-executor.js';

export interface StatusReport {
  /** 'none' when nothing can serve page tools: no extension (not built yet) and no browser to launch. */
  backend: 'fallback' | 'none';
  extension: { connected: boolean };
  browser: Omit<FallbackState, 'currentTab'>;
  tab: FallbackState['currentTab'];
}

export function statusReport({ currentTab, ...browser }: FallbackState): StatusReport {
  return { backend: browser.executable ? 'fallback' : 'none', extension: { connected: false }, browser, tab: currentTab };
}

function browserLine({ launched, executable, headless, tabs }: StatusReport['browser']): string {
  if (!executable) return 'browser: none found; pass --executable-path or set CHROME_MCP_CHROMIUM';
  const mode = headless ? 'headless' : 'headed';
  return launched ? `browser: running, ${mode}, ${tabs} tab(s), ${executable}` : `browser: starts on the first page tool, ${mode}, ${executable}`;
}

export function statusResult(report: StatusReport): OperationResult {
  const { tab } = report;
  const lines = [
    `backend: ${report.backend}`,
    `extension: ${report.extension.connected ? 'connected' : 'not connected'}`,
    browserLine(report.browser),
    `tab: ${tab ? `${tab.id} ${tab.url}${tab.title ? ` "${tab.title}"` : ''}` : 'none'}`,
  ];
  return { text: lines.join('\n'), data: { ...report } };
}
