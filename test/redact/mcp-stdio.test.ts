// End to end over the built `chrome-mcp` on stdio: a page full of planted secrets read through every reading tool;
// no planted value reaches any tool result, and none reaches the server's log.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { dataOf, textOf, type CallResult } from '../support/tool-result.js';
import { TEST_POLICY_FLAGS } from '../support/test-policy.js';
import { ALL_CAPS } from '../support/all-caps.js';
import { removeDir } from '../support/remove-dir.js';

const CLI = fileURLToPath(new URL('../../dist/electron/helper/cli.js', import.meta.url));
const JWT =
  'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyLTQ4MjEiLCJzY29wZSI6ImFkbWluIiwiZXhwIjoxODkzNDU2MDAwfQ.2zOAizlUsCt232fEJ0asOBd0C_FaeHvfCIbte4pvu-_xwN8AoQZ7f3qhTa1OXiIl-r1WR_lzFqqhfGGff_ZpCt';
const QUERY_TOKEN = '2lONEH1tCu9CrgxaXsORGQhzAwMMrBJY';

/** Every secret planted in redact-secrets.html or in the URL it is opened with (secret parts only: prefixes may show). */
const PLANTED = [
  '1fHSC4kfjMon6pF9ljDNlPn1yhUTssMp', // <meta name="csrf-token" content>
  '7pAFRgIS1oupBIQhveWwjDrCxePlk4vo', // hidden authenticity_token input
  '0aTjPtZJbTEwOWIzM8i1xTgx0lebg9LA', // data-api-key attribute
  '5bTKCnJ33PBlOD21T0PVSicGNXEu409V', // script variable
  '8aEUeNxxNjAUPfFDhGwcyxGXddic0Li7', // link query and console line
  QUERY_TOKEN, // the page's own URL query
  'Tz8qLm2Wc5Rv7Np', // password in a database URL in DOM text
  '6sJgCt0dMUDCYKwCIR2Bdp4KkfPBs076ApybMrhGthkjphAheOoFw3UqpzDq', // Stripe key: input value and script variable
  '9gR4yHWA0iiC3-revsYu2D_lkFNHOci4OhyHSMTsVY_uugjZah4DsXqFsuA241cD', // OpenAI key in DOM text (its first half)
  '2fY71BQTnbf0hlu1wF1rv356nPxJ40sOnCnT', // GitHub token in DOM text
  '6J1ZV2SV21CPJXDP', // AWS key id in DOM text
  JWT.split('.')[1]!, // JWT payload (data attribute, console line, URL fragment)
  JWT.split('.')[2]!, // JWT signature
];

let fixtures: FixtureServer;
let client: Client;
let dataDir: string;
const stderr: string[] = [];

beforeAll(async () => {
  fixtures = await startFixtureServer();
  dataDir = mkdtempSync(join(tmpdir(), 'chrome-mcp-redact-'));
  const chosenBrowser = process.env['CHROME_MCP_CHROMIUM'];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, '--headless', '--port', '0', '--data-dir', dataDir, ...ALL_CAPS, ...TEST_POLICY_FLAGS],
    env: chosenBrowser ? { CHROME_MCP_CHROMIUM: chosenBrowser } : {},
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  client = new Client({ name: 'redact-e2e', version: '1' });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  await fixtures?.close();
  if (dataDir) removeDir(dataDir);
});

/** Everything the model would see of a result: its text blocks and its structured data. */
function seen(result: CallResult): string {
  return `${textOf(result)}\n${JSON.stringify(dataOf(result) ?? {})}`;
}

describe('a page of planted secrets, read through the real MCP server', () => {
  it('shows no planted value in any tool result, nor in the server log', async () => {
    const url = `${fixtures.url('redact-secrets.html')}?tab=api&access_token=${QUERY_TOKEN}#id_token=${JWT}`;
    const calls: [string, Record<string, unknown>][] = [
      ['tab_new', { url }],
      ['navigate', { url }],
      ['tabs', {}],
      ['status', {}],
      ['snapshot', {}],
      ['get_text', {}],
      ['get_text', { selector: '#key' }],
      ['get_text', { selector: '#visible-key' }],
      ['get_html', {}],
      ['get_html', { selector: '#cfg' }],
      ['find', { text: 'Reset link' }],
      ['eval', { expression: 'window.appConfig' }],
      ['eval', { expression: 'JSON.stringify(window.appConfig)' }],
      ['eval', { expression: '({ ...document.querySelector("#cfg").dataset })' }],
      ['eval', { expression: 'document.querySelector("#key").value' }],
      ['eval', { expression: 'location.href' }],
      ['eval', { expression: 'document.querySelector("#reset").href' }],
      ['eval', { expression: 'document.documentElement.outerHTML' }],
      // The page logs its config and a session line: the console tool reads them.
      ['console', { level: 'debug' }],
      // Its own request, headers and body: the first request this session's tab made.
      ['network', {}],
      ['network_get', { id: 1, body: true }],
      // An input and an element that hold secrets in their attributes; the page's script read whole and searched.
      ['inspect', { selector: '#key' }],
      ['inspect', { selector: '#cfg' }],
      ['sources', { action: 'read', url: 'redact-secrets' }],
      ['sources', { query: 'session' }],
      // An error names the page's URL too.
      ['click', { selector: '#no-such-element' }],
    ];
    const results: string[] = [];
    for (const [name, args] of calls) {
      const result = await client.callTool({ name, arguments: args });
      if (name !== 'click') expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
      results.push(`${name} →\n${seen(result)}`);
    }
    const everything = results.join('\n\n');
    // The reads really happened: the page's ordinary content and the secrets' names came through.
    expect(everything).toContain('Plan: Pro, $49.00 per month');
    expect(everything).toContain('access_token=[redacted 32 chars]');
    expect(everything).toContain('ghp_[redacted 36 chars]');
    expect(everything).toMatch(/sessionToken\\?":\\?"\[redacted 32 chars\]/);
    expect(everything).toMatch(/#\d+ log redact-secrets\.html:\d+: session_id=\[redacted 32 chars\]/);
    expect(everything).toMatch(/\nattributes: id="key" name="api_key" value="\[value hidden\]"/);
    expect(everything).toMatch(/ data-api-key="\[redacted 32 chars\]"/);
    expect(everything).toMatch(/\n9: +stripeKey: 'sk_live_\[redacted 60 chars\]',/);
    for (const secret of PLANTED) {
      const at = everything.indexOf(secret);
      expect(at, `planted ${secret} leaked: …${everything.slice(Math.max(0, at - 200), at + 60)}`).toBe(-1);
    }
    const log = stderr.join('');
    expect(log).toContain('[chrome-mcp] ready');
    for (const secret of PLANTED) expect(log).not.toContain(secret);
  });

  it('shows no planted value in the bodies the page sent', async () => {
    const listed = textOf(await client.callTool({ name: 'network', arguments: { method: 'POST' } }));
    const ids = [...listed.matchAll(/^#(\d+) POST /gm)].map((match) => Number(match[1]));
    expect(ids).toHaveLength(2);
    const bodies = await Promise.all(
      ids.map(async (id) => seen(await client.callTool({ name: 'network_get', arguments: { id, body: true } }))),
    );
    const everything = bodies.join('\n\n');
    // The bodies were read: what is not secret in them came through.
    expect(everything).toMatch(/request body:\nuser=ada&password=/);
    expect(everything).toContain('"region":"eu-west-1"');
    for (const secret of PLANTED) {
      const at = everything.indexOf(secret);
      expect(at, `planted ${secret} leaked: …${everything.slice(Math.max(0, at - 200), at + 60)}`).toBe(-1);
    }
  });
});
