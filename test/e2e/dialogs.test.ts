// JavaScript dialogs in the launched browser: the built `chrome-mcp` on stdio, driving its own headless Chromium
// over the launch pipe (test/support/dialog-scenarios.ts has the scenarios both backends run).
import { afterAll, beforeAll, describe } from 'vitest';
import { dialogScenarios, serveDialogPages } from '../support/dialog-scenarios.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startMcpBackend, type McpBackend } from '../support/mcp-backends.js';
import { TEST_POLICY_FLAGS } from '../support/test-policy.js';

let fixtures: FixtureServer;
let mcp: McpBackend;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  serveDialogPages(fixtures);
  // Every opt-in tool is listed there: the scenarios run a batch.
  mcp = await startMcpBackend('fallback', [...TEST_POLICY_FLAGS]);
});

afterAll(async () => {
  await mcp?.close();
  await fixtures?.close();
});

describe('dialogs in the launched browser', () => {
  dialogScenarios(
    () => mcp.client,
    () => fixtures,
  );
});
