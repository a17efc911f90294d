// Stands in for Claude Code's `claude` (which cannot be installed here): records each argv as a JSON line in
// $FAKE_CLAUDE_LOG, then does what `claude mcp add-json|remove --scope user NAME` does to $CLAUDE_CONFIG_DIR/.claude.json
// and prints what it prints. $FAKE_CLAUDE_FAIL makes it fail with that text (only for the subcommand in
// $FAKE_CLAUDE_FAIL_ONLY, when set); $FAKE_CLAUDE_HANG makes it never finish.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { setInterval } from 'node:timers';

const argv = process.argv.slice(2);
appendFileSync(process.env.FAKE_CLAUDE_LOG, `${JSON.stringify(argv)}\n`);

function fail(message) {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

if (process.env.FAKE_CLAUDE_HANG) setInterval(() => undefined, 60_000);
else if (process.env.FAKE_CLAUDE_FAIL && [undefined, argv[1]].includes(process.env.FAKE_CLAUDE_FAIL_ONLY))
  fail(process.env.FAKE_CLAUDE_FAIL);
else {
  const path = join(process.env.CLAUDE_CONFIG_DIR, '.claude.json');
  const config = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : {};
  const servers = (config.mcpServers ??= {});
  const [mcp, verb, scopeFlag, scope, name, json, ...rest] = argv;
  if (mcp !== 'mcp' || scopeFlag !== '--scope' || scope !== 'user' || rest.length > 0)
    fail(`error: unexpected arguments ${JSON.stringify(argv)}`);
  if (verb === 'add-json' && json !== undefined) {
    if (Object.hasOwn(servers, name)) fail(`MCP server ${name} already exists in user config`);
    servers[name] = JSON.parse(json);
    writeFileSync(path, JSON.stringify(config, null, 2));
    process.stdout.write(`Added stdio MCP server ${name} to user config\nFile modified: ${path}\n`);
  } else if (verb === 'remove' && json === undefined) {
    if (!Object.hasOwn(servers, name)) fail(`No user-scoped MCP server found with name: ${name}`);
    delete servers[name];
    writeFileSync(path, JSON.stringify(config, null, 2));
    process.stdout.write(`Removed MCP server "${name}" from user config\nFile modified: ${path}\n`);
  } else fail(`error: unknown command ${JSON.stringify(argv)}`);
}
