// The `status` tool's answer: which backend serves calls and why, the extension link, the fallback browser, the tab.
import type { OperationResult } from '../../../shared/protocol/operations.js';
import type { BackendName, BrowserChoice, Selection } from '../backend/backend-manager.js';
import type { FallbackState } from '../fallback/fallback-executor.js';

export interface ExtensionStatus {
  connected: boolean;
  /** The loopback port the extension dials, or why the core could not listen. */
  bridge: { port: number } | { error: string };
  /** Where the pairing secret lives; 'none' before the first pairing. (Not named `secret`: redaction masks that key.) */
  pairing: 'keychain' | 'file' | 'none';
  chrome?: string;
}

export interface StatusInputs {
  choice: BrowserChoice;
  lastCall: Selection | undefined;
  extension: ExtensionStatus;
  fallback: FallbackState;
}

export interface StatusReport {
  /** What the next page call would use right now. */
  backend: BackendName;
  lastCall: Selection | null;
  extension: ExtensionStatus;
  browser: Omit<FallbackState, 'currentTab'>;
  tab: FallbackState['currentTab'];
}

function nextBackend({ choice, extension, fallback }: StatusInputs): BackendName {
  if (choice !== 'fallback' && extension.connected) return 'extension';
  if (choice !== 'extension' && fallback.executable) return 'fallback';
  return 'none';
}

export function statusReport(inputs: StatusInputs): StatusReport {
  const { currentTab, ...browser } = inputs.fallback;
  const backend = nextBackend(inputs);
  return {
    backend,
    lastCall: inputs.lastCall ?? null,
    extension: inputs.extension,
    browser,
    tab: backend === 'fallback' ? currentTab : null,
  };
}

function extensionLine({ connected, bridge, pairing, chrome }: ExtensionStatus): string {
  const link = 'error' in bridge ? `bridge not listening: ${bridge.error}` : `bridge 127.0.0.1:${bridge.port}`;
  const paired =
    pairing === 'none' ? 'not paired yet (chrome-mcp pair, or install the native host)' : `secret in ${pairing}`;
  return `extension: ${connected ? `connected${chrome ? ` (Chrome ${chrome})` : ''}` : 'not connected'}; ${link}; ${paired}`;
}

function browserLine({ launched, executable, headless, tabs }: StatusReport['browser']): string {
  if (!executable) return 'fallback browser: none found; pass --executable-path or set CHROME_MCP_CHROMIUM';
  const mode = headless ? 'headless' : 'headed';
  return launched
    ? `fallback browser: running, ${mode}, ${tabs} tab(s), ${executable}`
    : `fallback browser: starts on first use, ${mode}, ${executable}`;
}

export function statusResult(report: StatusReport): OperationResult {
  const { tab, lastCall } = report;
  const lines = [
    `backend: ${report.backend}${lastCall ? ` (last call: ${lastCall.backend}, ${lastCall.why})` : ''}`,
    extensionLine(report.extension),
    browserLine(report.browser),
  ];
  if (tab) lines.push(`tab: ${tab.id} ${tab.url}${tab.title ? ` "${tab.title}"` : ''}`);
  return { text: lines.join('\n'), data: { ...report } };
}
