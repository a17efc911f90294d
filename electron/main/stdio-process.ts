// The start of an app process whose stdout carries a protocol (MCP for --mcp-helper, native messaging for
// --native-host): one stray byte there corrupts it, and such a process shows nothing.
import { app } from 'electron';
import { routeConsoleToLog } from '../core/log.js';

/** Every console line (ours, a dependency's) goes to stderr, redacted; no GPU, no dock icon. */
export function becomeStdioProcess(): void {
  routeConsoleToLog();
  app.disableHardwareAcceleration();
  app.dock?.hide();
}
