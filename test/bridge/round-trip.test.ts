// Latency of the link itself: a trivial call to a stand-in extension in another process that answers at once.
// Reports p50 / p95 for the bench notes; the bound is loose on purpose (2 shared cores) and only catches a gross regression.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startBridge } from './support/bridge-harness.js';

const ECHO = fileURLToPath(new URL('./support/echo-extension.ts', import.meta.url));

describe('round trip', () => {
  it('a trivial call to an extension in another process answers in well under a few milliseconds at p50', async () => {
    const { bridge, auth } = await startBridge();
    const connected = new Promise((resolve) => bridge.once('connected', resolve));
    const child = spawn(process.execPath, ['--import', 'tsx', ECHO, String(bridge.port)], {
      env: { ...process.env, CHROME_MCP_TEST_SECRET: auth.current },
      stdio: 'inherit',
    });
    try {
      await connected;
      const link = bridge.link()!;
      for (let i = 0; i < 300; i++) await link.call('eval', { expression: '1' });
      const samples: number[] = [];
      for (let i = 0; i < 2_000; i++) {
        const started = performance.now();
        await link.call('eval', { expression: '1' });
        samples.push(performance.now() - started);
      }
      samples.sort((a, b) => a - b);
      const at = (q: number) => samples[Math.floor(q * (samples.length - 1))]!;
      process.stderr.write(`bridge round trip, 2000 calls to another process: p50 ${at(0.5).toFixed(3)} ms, p95 ${at(0.95).toFixed(3)} ms\n`);
      expect(at(0.5)).toBeLessThan(5);
    } finally {
      child.kill();
    }
  });
});
