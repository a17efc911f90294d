// Renders the README's tool table from the catalog and splices it between the markers, so the table never drifts.
import type { ToolDefinition } from '../shared/tools/define.js';

export const START = '<!-- tools:start -->';
export const END = '<!-- tools:end -->';

function effect(tool: ToolDefinition): string {
  if (tool.readOnly) return 'read-only';
  return tool.destructive ? 'destructive' : 'changes state';
}

/** One table cell: single line, pipes escaped, and `<` outside code spans escaped so `<select>` is not HTML. */
function cell(text: string): string {
  return text
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\|/g, '\\|')
    .split('`')
    .map((part, index) => (index % 2 === 0 ? part.replace(/</g, '&lt;') : part))
    .join('`');
}

/** Where the tool is listed: the default set, or the `--caps` name that switches it on. */
function listedIn(tool: ToolDefinition): string {
  return tool.cap ? `\`--caps ${tool.cap}\`` : 'default';
}

export function renderTable(catalog: readonly ToolDefinition[]): string {
  const rows = catalog.map(
    (tool) =>
      `| ${tool.category} | \`${tool.name}\` | ${cell(tool.description)} | ${effect(tool)} | ${listedIn(tool)} |`,
  );
  return ['| category | tool | what it does | effect | listed |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** The README with the region between the markers replaced; undefined when the markers are missing. */
export function spliceTable(readme: string, table: string): string | undefined {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END, start);
  if (start < 0 || end < 0) return undefined;
  return `${readme.slice(0, start + START.length)}\n${table}\n${readme.slice(end)}`;
}
