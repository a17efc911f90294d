// `npm run docs` writes the README's tool table from the catalog; `--check` (CI) exits 1 when the README is stale.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CATALOG } from '../shared/tools/catalog.js';
import { END, START, renderTable, spliceTable } from './tool-table.js';

const README = fileURLToPath(new URL('../README.md', import.meta.url));
const check = process.argv.includes('--check');

const current = existsSync(README) ? readFileSync(README, 'utf8') : `# Chrome MCP\n\n## Tools\n\n${START}\n${END}\n`;
const next = spliceTable(current, renderTable(CATALOG));
if (next === undefined) {
  process.stderr.write(`README.md has no ${START} … ${END} markers; add them where the tool table belongs.\n`);
  process.exit(1);
}
if (check) {
  if (next !== current) {
    process.stderr.write('README.md tool table is stale: run `npm run docs` and commit the result.\n');
    process.exit(1);
  }
} else if (next !== current) {
  writeFileSync(README, next);
  process.stderr.write(`README.md tool table updated (${CATALOG.length} tools).\n`);
}
