// In-page snapshot renderer: outline nodes as compact aria-snapshot lines (the walker that builds them is snapshot.ts).
import type { Outline, SnapshotNode } from './snapshot.js';

export interface Rendered extends Outline {
  /** Every node of `open` rendered as its line followed by two or more child blocks. */
  settled: boolean;
}

/**
 * Renders nodes as Playwright-style aria-snapshot lines, two spaces per level. Table rows whose cells hold only text and
 * controls become one line (`- row: a | link "b" [ref=e4] | c`), and small containers of leaves are written inline.
 * `open` are nodes of a walk that stopped early, whose children so far are given: once such a node renders as a block
 * of two or more children, more children can only add lines after those (both rules only grow true), so the lines
 * are a prefix of the whole page's.
 */
export function snapshotRender(nodes: SnapshotNode[], open: Set<SnapshotNode> = new Set()): Rendered {
  const TEXT_MAX = 300;
  const INLINE_MAX = 240;
  const BLOCK = new Set([
    'list',
    'table',
    'grid',
    'treegrid',
    'tree',
    'navigation',
    'main',
    'banner',
    'contentinfo',
    'complementary',
    'region',
    'form',
    'search',
    'dialog',
    'alertdialog',
    'menu',
    'menubar',
    'tablist',
    'toolbar',
    'listbox',
    'radiogroup',
    'group',
    'article',
    'tabpanel',
    'figure',
    'document',
    'application',
    'combobox',
  ]);
  const CELLS = new Set(['cell', 'gridcell', 'columnheader', 'rowheader']);
  const outline: Rendered = { lines: [], owners: [], cut: false, settled: true };

  const clipText = (text: string) => {
    if (text.length <= TEXT_MAX) return text;
    outline.cut = true;
    return `${text.slice(0, TEXT_MAX)}…`;
  };
  const head = (node: SnapshotNode) =>
    `${node.role}${node.name ? ` ${JSON.stringify(node.name)}` : ''}${node.states ?? ''}${node.ref ? ` [ref=${node.ref}]` : ''}`;
  const isLeaf = (node: SnapshotNode) => !node.children?.length && node.owner === undefined;
  const inline = (node: SnapshotNode) =>
    node.role === 'text' ? clipText(node.text ?? '') : head(node) + (node.value !== undefined ? `: ${node.value}` : '');
  const cellText = (node: SnapshotNode) =>
    CELLS.has(node.role) && !node.ref && (node.children ?? []).every(isLeaf)
      ? (node.children ?? []).map(inline).join(' ')
      : undefined;

  const emit = (node: SnapshotNode, depth: number) => {
    const pad = '  '.repeat(depth);
    if (node.role === 'text' || node.role === 'options') {
      outline.lines.push(`${pad}- ${node.role}: ${clipText(node.text ?? '')}`);
      return;
    }
    const line = `${pad}- ${head(node)}${node.value !== undefined ? `: ${node.value}` : ''}`;
    const children = node.children ?? [];
    if (node.owner !== undefined) outline.owners.push([outline.lines.length, node.owner]);
    const single = children.length === 0 ? line : node.value === undefined ? oneLine(node, line, children) : undefined;
    if (open.has(node) && (single !== undefined || children.length < 2)) outline.settled = false;
    if (single !== undefined) {
      outline.lines.push(single);
      return;
    }
    outline.lines.push(node.value === undefined ? `${line}:` : line);
    for (const child of children) emit(child, depth + 1);
  };
  // A row of plain cells, or a small container of leaves, as one line; undefined when its children need lines.
  const oneLine = (node: SnapshotNode, line: string, children: SnapshotNode[]): string | undefined => {
    if (node.role === 'row') {
      const cells = children.map(cellText);
      return cells.every((cell) => cell !== undefined) ? `${line}: ${cells.join(' | ')}` : undefined;
    }
    if (BLOCK.has(node.role) || !children.every(isLeaf)) return undefined;
    const joined = children.map(inline).join(' ');
    return joined.length <= INLINE_MAX || (children.length === 1 && children[0]!.role === 'text')
      ? `${line}: ${joined}`
      : undefined;
  };

  for (const node of nodes) emit(node, 0);
  return outline;
}
