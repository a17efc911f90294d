// The link across a process boundary: a stand-in extension in another process answers a stream of calls, each with
// its own answer. Its latency (p50 / p95) is a figure of `npm run bench`, not an assertion: a busy machine fails those.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startBridge } from './support/bridge-harness.js';

const ECHO = fileURLToPath(new URL('./support/echo-extension.ts', import.meta.url));

describe('round trip', () => {
  it('calls to an extension in another process are each answered, back to back and concurrently', async () => {
    const { bridge, auth } = await startBridge();
    const connected = new Promise((resolve) => bridge.once('connected', resolve));
    const child = spawn(process.execPath, ['--import', 'tsx', ECHO, String(bridge.port)], {
      env: { ...process.env, CHROME_MCP_TEST_SECRET: auth.current },
      stdio: 'inherit',
    });
    try {
      await connected;
      const link = bridge.link()!;
      for (let i = 0; i < 50; i++) expect(await link.call('eval', { expression: '1' })).toEqual({ text: 'x' });
      const together = await Promise.all(Array.from({ length: 50 }, () => link.call('eval', { expression: '1' })));
      expect(together).toEqual(Array.from({ length: 50 }, () => ({ text: 'x' })));
    } finally {
      child.kill();
    }
  });
});
