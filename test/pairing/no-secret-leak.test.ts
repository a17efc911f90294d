// No pairing secret reaches stdout, stderr or a file it does not belong in: every command runs as a real process
// through a whole pairing life (install, first pairing, doctor, code pairing, re-pairing, the MCP server), and both
// streams are searched for each secret in every encoding a careless log line might use.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXTENSION_ORIGIN } from '../../shared/protocol/extension-id.js';
import { createBridgeAuth } from '../../electron/core/pairing/bridge-auth.js';
import { SECRET_FILE, SecretStore } from '../../electron/core/pairing/secret-store.js';
import { CLI, type CliRun, envWithoutKeychain, runCli, tempDirs } from './support/cli.js';
import { frame, replies } from './support/framing.js';
import { holds, redeemCode } from './support/redeem.js';

const dirs = tempDirs('leak');
afterAll(() => dirs.cleanup());

/** The secret as text, its raw bytes in base64 (padded or not) and hex, the text itself in base64 and hex, and a prefix. */
function encodings(secret: string): string[] {
  const bytes = Buffer.from(secret, 'base64url');
  const text = Buffer.from(secret, 'utf8');
  const forms = [
    secret,
    bytes.toString('base64'),
    bytes.toString('base64').replace(/=+$/, ''),
    bytes.toString('hex'),
    text.toString('base64'),
    text.toString('hex'),
    secret.slice(0, 16),
  ];
  return [...forms, ...forms.map((form) => form.toUpperCase())];
}

interface Captured {
  what: string;
  stream: string;
}

/** The MCP server over stdio: initialize, a status call, then stdin closes; both streams whole. */
function mcpSession(dataDir: string, env: NodeJS.ProcessEnv): Promise<CliRun> {
  const child = spawn(process.execPath, [CLI, '--headless', '--port', '0', '--data-dir', dataDir], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  child.stdout.on('data', (chunk: Buffer) => {
    stdout.push(chunk);
    // Close once the status answer is in: the server then shuts down as a client leaving would make it.
    if (Buffer.concat(stdout).toString().includes('"id":2')) child.stdin.end();
  });
  send({
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'leak-test', version: '1' } },
  });
  send({ method: 'notifications/initialized' });
  send({ id: 2, method: 'tools/call', params: { name: 'status', arguments: {} } });
  return new Promise((resolve) =>
    child.once('close', (code) =>
      resolve({ code, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr).toString('utf8') }),
    ),
  );
}

/** Every file under `dir` with its text (binary files too: a secret is ASCII either way). */
function filesUnder(dir: string): Array<{ path: string; text: string }> {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => ({ path, text: readFileSync(path, 'latin1') }));
}

for (const keychain of ['as this machine has it', 'with no keychain (file store)'] as const) {
  describe(`no secret in any output, ${keychain}`, () => {
    // About fifteen real processes one after another, each loading node: room for a busy machine, not a speed bound.
    it(
      'through install, pairing by host and by code, re-pairing, doctor, the MCP server and refused callers',
      { timeout: 120_000 },
      async () => {
        const home = dirs.make();
        const dataDir = dirs.dataDir();
        const browserDir = dirs.make();
        const env =
          keychain === 'as this machine has it' ? { ...process.env, HOME: home } : envWithoutKeychain({ HOME: home });
        const store = new SecretStore(
          dataDir,
          keychain === 'as this machine has it' ? undefined : () => Promise.resolve(undefined),
        );
        const captured: Captured[] = [];
        const keep = (what: string, run: CliRun, stdoutIsChannel = false) => {
          expect(run.code, `${what}: ${run.stderr}`).not.toBeNull();
          captured.push({ what: `${what} stderr`, stream: run.stderr });
          // The native host's stdout is the channel that hands the secret to Chrome: it is checked to be frames only.
          if (!stdoutIsChannel) captured.push({ what: `${what} stdout`, stream: run.stdout.toString('utf8') });
        };
        const cli = async (what: string, args: string[], input?: Buffer) => {
          const run = await runCli(args, { env, ...(input ? { input } : {}) });
          keep(what, run);
          return run;
        };
        const host = async (what: string, origin: string, input: Buffer) => {
          const run = await runCli(['native-host', '--data-dir', dataDir, origin], { env, input });
          keep(what, run, true);
          return replies(run.stdout);
        };
        const pairing = frame('{"type":"pairing"}');
        const ours = `${EXTENSION_ORIGIN}/`;

        await cli('install', ['install-native-host', '--browser-data-dir', browserDir, '--data-dir', dataDir]);
        await cli('install into home', ['install-native-host', '--data-dir', dataDir]);
        const [first] = (await host('host, first pairing', ours, pairing)) as Array<{ secret: string }>;
        const firstSecret = first!.secret;
        await host('host, asked again', ours, Buffer.concat([pairing, frame('{"type":"dump"}'), frame('{bad')]));
        await host('host, another origin', 'chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/', pairing);
        await cli('doctor', ['doctor', '--data-dir', dataDir, '--browser-data-dir', browserDir]);
        await cli('doctor, home', ['doctor', '--data-dir', dataDir]);
        const paired = await cli('pair', ['pair', '--data-dir', dataDir]);
        const code = /Pairing code: (\S+)/.exec(paired.stdout.toString())![1]!;
        // The running core's side: the bridge redeems the code and gets the new secret.
        const auth = createBridgeAuth({ dataDir, store });
        expect(await redeemCode(auth, 'WRONG-CODE')).toBeUndefined();
        const secondSecret = (await redeemCode(auth, code))!;
        expect(secondSecret).toBeDefined();
        expect(await holds(auth, firstSecret)).toBe(false);
        const [again] = (await host('host after re-pairing', ours, pairing)) as Array<{ secret: string }>;
        expect(again!.secret).toBe(secondSecret);
        await cli('doctor after re-pairing', ['doctor', '--data-dir', dataDir, '--browser-data-dir', browserDir]);
        await cli('pair --help', ['pair', '--help']);
        await cli('extension-path', ['extension-path']);
        await cli('remove', ['install-native-host', '--data-dir', dataDir, '--remove']);
        keep('MCP server', await mcpSession(dataDir, env));

        const secrets = [firstSecret, secondSecret];
        expect(captured.length).toBe(24);
        for (const secret of secrets) {
          for (const form of encodings(secret)) {
            for (const { what, stream } of captured)
              expect(stream.includes(form), `${what} holds a form of the secret`).toBe(false);
          }
        }

        // On disk the secret is only where the store keeps it: secret.json in the file store, nowhere in the keychain case.
        const kind = store.location();
        for (const { path, text } of [...filesUnder(dataDir), ...filesUnder(browserDir), ...filesUnder(home)]) {
          const allowed = kind === 'file' && path === join(dataDir, SECRET_FILE);
          for (const secret of secrets)
            for (const form of encodings(secret))
              if (!allowed) expect(text.includes(form), `${path} holds a form of the secret`).toBe(false);
        }
      },
    );
  });
}
