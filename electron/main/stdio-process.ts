// The start of an app process whose stdout carries a protocol (MCP for --mcp-helper, native messaging for
// --native-host): one stray byte there corrupts it, and such a process shows nothing.
import { formatWithOptions } from 'node:util';
import { app } from 'electron';
import { log } from '../core/log.js';

/** Every console line (ours, a dependency's) goes to stderr, redacted; no GPU, no dock icon. */
export function becomeStdioProcess(): void {
  console.log = console.info = console.debug = console.warn = console.error = (...parts: unknown[]) => log(formatWithOptions({ colors: false }, ...parts));
  app.disableHardwareAcceleration();
  app.dock?.hide();
}
