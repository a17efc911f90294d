// `npm run compare`: the everyday pages driven through chrome-mcp and through Playwright MCP, both over real MCP stdio,
// each page judged only by what it reported itself. Prints pages × servers, the failures in full, and the totals.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { ALL_CAPS } from '../test/support/all-caps.js';
import { ourDriver, playwrightDriver, type Driver } from './compare/drivers.js';
import { openSession, type Session, type Spawn } from './compare/mcp.js';
import { UPLOAD } from './compare/pages.js';
import { SCENARIOS } from './compare/scenarios.js';
import { startSite, type Site } from './compare/site.js';

const CLI = fileURLToPath(new URL('../dist/electron/helper/cli.js', import.meta.url));
const CHROMIUM = process.env['CHROME_MCP_CHROMIUM'] ?? '/usr/bin/chromium';
// How long a page may take to report after the scenario's last call returned.
const REPORT_MS = 3000;

interface Column {
  name: string;
  spawn: Spawn;
  driver(session: Session): Driver;
}

interface Outcome {
  ok: boolean;
  why: string;
}

interface Run {
  outcomes: Map<string, Outcome>;
  chars: number;
  calls: number;
  ms: number;
}

function columns(site: Site, work: string): Column[] {
  const policy = join(work, 'policy.json');
  const host = new URL(site.origin).host;
  writeFileSync(policy, JSON.stringify({ version: 1, rules: [{ site: host, level: 'trusted' }], downloads: true }));
  const root = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
  const ours = [CLI, '--headless', '--browser', 'fallback', '--port', '0', '--data-dir', join(work, 'data')];
  const playwright = ['-y', '@playwright/mcp@latest', '--headless', '--isolated', '--executable-path', CHROMIUM];
  return [
    {
      name: 'chrome-mcp',
      spawn: {
        command: process.execPath,
        args: [...ours, ...ALL_CAPS, '--policy', policy, '--upload-dir', work],
        env: { CHROME_MCP_CHROMIUM: CHROMIUM },
      },
      driver: ourDriver,
    },
    {
      // vision lists its x,y mouse tools, as ALL_CAPS lists ours: each server with its opt-in tools on.
      name: 'Playwright MCP',
      spawn: {
        command: 'npx',
        args: [...playwright, ...root, '--caps', 'vision', '--output-dir', join(work, 'out')],
        cwd: work,
      },
      driver: (session) => playwrightDriver(session, work),
    },
  ];
}

async function runColumn(column: Column, site: Site, upload: string): Promise<Run> {
  const run: Run = { outcomes: new Map(), chars: 0, calls: 0, ms: 0 };
  const start = performance.now();
  let session: Session | undefined;
  const end = async () => {
    if (!session) return;
    run.chars += session.chars;
    run.calls += session.calls;
    await session.close().catch(() => undefined);
    session = undefined;
  };
  site.reset();
  for (const scenario of SCENARIOS) {
    session ??= await openSession(column.spawn);
    let error = '';
    await scenario.run(column.driver(session), site.url, { upload }).catch((e: Error) => (error = e.message));
    const verdict = await site.verdict(scenario.id, REPORT_MS);
    // The page is the judge; what the scenario ran into is the why of a failure.
    run.outcomes.set(scenario.id, { ok: verdict.ok, why: verdict.ok ? '' : error || verdict.why });
    process.stderr.write(`${column.name} ${scenario.id}: ${verdict.ok ? 'pass' : `FAIL ${error || verdict.why}`}\n`);
    // A failed errand may leave a dialog open or a call wedged: the next page starts on a fresh server.
    if (!verdict.ok) await end();
  }
  await end();
  run.ms = performance.now() - start;
  return run;
}

function print(names: string[], runs: (Run | string)[]): void {
  const cell = (run: Run | string, id: string) =>
    typeof run === 'string' ? 'skipped' : run.outcomes.get(id)?.ok ? 'pass' : 'FAIL';
  console.log(`| page | what | ${names.join(' | ')} |\n|---|---|${names.map(() => '---|').join('')}`);
  for (const s of SCENARIOS) console.log(`| ${s.id} | ${s.what} | ${runs.map((run) => cell(run, s.id)).join(' | ')} |`);
  const total = (f: (run: Run) => string) => runs.map((run) => (typeof run === 'string' ? '—' : f(run))).join(' | ');
  const passed = (run: Run) => [...run.outcomes.values()].filter((o) => o.ok).length;
  console.log(`| **passed** | of ${SCENARIOS.length} | ${total((run) => `**${passed(run)}**`)} |`);
  console.log(`| tool calls | | ${total((run) => String(run.calls))} |`);
  console.log(`| result tokens | text chars / 4 | ${total((run) => String(Math.round(run.chars / 4)))} |`);
  console.log(`| time | wall, s | ${total((run) => (run.ms / 1000).toFixed(1))} |`);
  runs.forEach((run, i) => {
    if (typeof run === 'string') return void console.log(`\n${names[i]}: skipped — ${run}`);
    const failed = [...run.outcomes].filter(([, o]) => !o.ok);
    if (failed.length)
      console.log(`\n${names[i]} failures:\n${failed.map(([id, o]) => `- ${id}: ${o.why}`).join('\n')}`);
  });
}

const site = await startSite();
const work = mkdtempSync(join(tmpdir(), 'chrome-mcp-compare-'));
mkdirSync(join(work, 'out'));
const upload = join(work, UPLOAD.name);
writeFileSync(upload, UPLOAD.content);
try {
  const cols = columns(site, work);
  const runs: (Run | string)[] = [];
  for (const column of cols)
    runs.push(await runColumn(column, site, upload).catch((e: Error) => `could not start: ${e.message}`));
  print(
    cols.map((c) => c.name),
    runs,
  );
} finally {
  await site.close();
  rmSync(work, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}
