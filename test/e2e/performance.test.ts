// performance through a real MCP client over stdio, in both backends (the launched browser, and the person's
// Chromium through the real extension's chrome.debugger): a trace over a reload of a page with one of each finding
// names them, and a stop without a trace or a second start answers a stable code with a next step.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { BACKENDS, startMcpBackend, type McpBackend } from '../support/mcp-backends.js';
import { TEST_POLICY_FLAGS } from '../support/test-policy.js';
import { textOf } from '../support/tool-result.js';

describe.each(BACKENDS)('performance in the %s backend', (backend) => {
  let fixtures: FixtureServer;
  let mcp: McpBackend;

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    mcp = await startMcpBackend(backend, [...TEST_POLICY_FLAGS, '--caps', 'devtools']);
    await mcp.call('tab_new', { url: fixtures.url('perf-page.html'), focus: true });
  }, 90_000);

  afterAll(async () => {
    await mcp?.close();
    await fixtures?.close();
  });

  /** Calls a tool that must fail and answers its text, which starts with the code. */
  const refused = async (name: string, args: Record<string, unknown>): Promise<string> => {
    const result = await mcp.result(name, args);
    expect(result.isError, textOf(result)).toBe(true);
    return textOf(result);
  };

  it('is listed under --caps devtools', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('performance');
  });

  it('answers a stop with no trace with TRACE_NOT_RUNNING and how to start one', async () => {
    const text = await refused('performance', { action: 'stop' });
    expect(text).toMatch(/^TRACE_NOT_RUNNING\b/);
    expect(text).toContain('action start');
  });

  it('traces a reload and names the load timings, LCP image, what shifted, the long task and the slow request', async () => {
    const started = await mcp.call('performance', { action: 'start', reload: true });
    expect(started).toMatch(/^performance: tracing; reloaded http:\/\/127\.0\.0\.1:\d+\/perf-page\.html "Performance"/);
    expect(await refused('performance', { action: 'start' })).toMatch(/^TRACE_RUNNING\b[\s\S]*action stop/);
    await mcp.call('wait_for', { text: 'slow done' });
    // The image came before the slow answer; a moment more for its paint to be reported.
    await sleep(500);
    const result = await mcp.result('performance', { action: 'stop' });
    const text = textOf(result);
    expect(result.isError, text).toBeFalsy();
    expect(text).toMatch(
      /\nload of http:\/\/127\.0\.0\.1:\d+\/perf-page\.html: TTFB \d+ ms, DOMContentLoaded \d+ ms, load \d+ ms\n/,
    );
    expect(text).toMatch(/\nLCP: \d+ ms, image img#hero http:\/\/127\.0\.0\.1:\d+\/perf-hero\.svg\n/);
    expect(text).toMatch(/\nCLS: 0\.\d+ from \d+ shifts?, moved: [^\n]*div#content/);
    // The engine's own presence pill moves as it shows (seen in the extension backend): it is never the page's shift.
    expect(text).not.toContain('chrome-mcp-indicator');
    expect(text).toMatch(/\nlong tasks: [^\n]*busyLoop in http:\/\/127\.0\.0\.1:\d+\/perf-busy\.js/);
    expect(text).toMatch(/\nlargest: [^\n]*perf-hero\.svg/);
    expect(text).toMatch(/\nslowest: [^\n]*\/slow\?ms=900/);
    expect(result.structuredContent).toMatchObject({ tracing: false, lcpMs: expect.any(Number) });
    // The trace is over: the tab can be traced again, and a second stop has nothing to stop.
    expect(await refused('performance', { action: 'stop' })).toMatch(/^TRACE_NOT_RUNNING\b/);
  });
});
