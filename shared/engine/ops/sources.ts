// sources: the page's own scripts in every frame (script-log.ts), listed, searched or read one at a time from the
// session that parsed them; each judged by the policy where its frame stands and where the file came from.
import { ToolError } from '../../protocol/errors.js';
import { redactText } from '../../redact/text.js';
import type { OperationContext, OperationResult } from '../../protocol/operations.js';
import type { SourcesArgs } from '../../tools/args.js';
import { withDeadline } from '../deadline.js';
import type { Frame } from '../frames.js';
import type { PageContext } from '../page-context.js';
import type { ScriptEntry } from '../script-log.js';
import { sourceName, sourceReadable } from '../source-access.js';
import { mapNote } from '../source-map.js';
import { framesFor } from '../targets.js';
import { bytes } from './network.js';

const DEFAULT_LIST = 100;
const DEFAULT_MATCHES = 50;
const DEFAULT_LINES = 200;
/** A read's whole text, and one line of it: a minified bundle is one line of megabytes. */
const READ_CHARS = 20_000;
const LINE_CHARS = 2_000;
/** Characters shown on each side of a match in a long line. */
const SNIPPET_SIDE = 80;
/** Scripts searched at once, and how long one may take (a busy renderer answers nothing). */
const SEARCH_BATCH = 16;
const SEARCH_MS = 5_000;

interface Listed {
  script: ScriptEntry;
  frame: Frame;
}

export async function sources(page: PageContext, args: SourcesArgs, _ctx: OperationContext): Promise<OperationResult> {
  await page.scripts.start();
  const action = args.action ?? (args.query !== undefined ? 'search' : args.id !== undefined ? 'read' : 'list');
  const { shown, omitted } = await readable(page, args);
  if (action === 'read') return read(page, pick(shown, args), args);
  if (action === 'search') return search(page, shown, omitted, args);
  return list(shown, omitted, args.limit ?? DEFAULT_LIST);
}

/** The scripts of the frames asked for (every frame when none) that the policy lets the model read, and how many not. */
async function readable(page: PageContext, args: SourcesArgs): Promise<{ shown: Listed[]; omitted: number }> {
  const frames = new Map((await framesFor(page, args.frame)).map((frame) => [frame.frameId, frame]));
  let omitted = 0;
  const shown: Listed[] = [];
  for (const script of page.scripts.list()) {
    const frame = frames.get(script.frameId);
    if (!frame || (args.url !== undefined && !script.url.includes(args.url))) continue;
    if (sourceReadable(page, frame, script.url)) shown.push({ script, frame });
    else omitted++;
  }
  return { shown, omitted };
}

function list(shown: Listed[], omitted: number, limit: number): OperationResult {
  const rows = shown.slice(0, limit).map(({ script, frame }) => {
    const map = mapNote(script.sourceMapURL);
    return [
      `#${script.id}`,
      `f${frame.ordinal}`,
      bytes(script.length),
      where(script, frame),
      ...(map ? [map] : []),
    ].join(' ');
  });
  const head = [
    `sources: ${shown.length} script${shown.length === 1 ? '' : 's'}`,
    shown.length > limit ? ` (first ${limit} shown; narrow with url or frame, or raise limit)` : '',
    omitted > 0 ? `, ${omitted} from sites the policy keeps from you left out` : '',
  ].join('');
  return { text: [head, ...rows].join('\n'), data: { shown: rows.length, omitted } };
}

/** The one script `id` names, or the one listed script whose URL holds `url`. */
function pick(shown: Listed[], args: SourcesArgs): Listed {
  const matches =
    args.id !== undefined ? shown.filter(({ script }) => script.id === args.id) : args.url !== undefined ? shown : [];
  if (args.id === undefined && args.url === undefined) {
    throw new ToolError('BAD_ARGS', 'sources read needs id (from sources list) or url (a piece of one script URL).');
  }
  if (matches.length === 0) {
    throw new ToolError('NOT_FOUND', `No script ${args.id !== undefined ? `#${args.id}` : `at ${args.url}`} here.`, {
      next: 'Call `sources` to list the scripts of this page now; a navigation replaces them.',
    });
  }
  if (matches.length > 1) {
    const ids = matches.slice(0, 10).map(({ script }) => `#${script.id}`);
    throw new ToolError('AMBIGUOUS', `${matches.length} scripts match ${args.url}: ${ids.join(', ')}. Pass id.`);
  }
  return matches[0]!;
}

async function read(page: PageContext, { script, frame }: Listed, args: SourcesArgs): Promise<OperationResult> {
  const lines = shownLines(await scriptSource(page, script));
  // Lines are numbered as in the file: an inline script's first line is its <script> tag's.
  const first = script.startLine + 1;
  const from = Math.max(first, args.line ?? first);
  const start = from - first;
  if (start >= lines.length) {
    throw new ToolError('BAD_ARGS', `Script #${script.id} has lines ${first}-${first + lines.length - 1}.`);
  }
  const wanted = lines.slice(start, start + (args.lines ?? DEFAULT_LINES));
  const out: string[] = [];
  let chars = 0;
  for (const [i, text] of wanted.entries()) {
    const line = `${from + i}: ${text.length > LINE_CHARS ? `${text.slice(0, LINE_CHARS)}… (${text.length - LINE_CHARS} more chars)` : text}`;
    if (chars + line.length > READ_CHARS && out.length > 0) break;
    out.push(line);
    chars += line.length + 1;
  }
  const last = from + out.length - 1;
  const map = mapNote(script.sourceMapURL);
  const head = `#${script.id} f${frame.ordinal} ${where(script, frame)} lines ${from}-${last} of ${first}-${first + lines.length - 1}${map ? `; ${map}` : ''}`;
  const tail = last < first + lines.length - 1 ? [`… more: sources id=${script.id} line=${last + 1}`] : [];
  return { text: [head, ...out, ...tail].join('\n') };
}

async function search(
  page: PageContext,
  shown: Listed[],
  omitted: number,
  args: SourcesArgs,
): Promise<OperationResult> {
  const query = args.query;
  if (query === undefined)
    throw new ToolError('BAD_ARGS', 'sources search needs query (text, or a regex with regex: true).');
  const pattern = matcher(query, args.regex === true);
  const limit = args.limit ?? DEFAULT_MATCHES;
  const found: string[] = [];
  let total = 0;
  let unsearched = 0;
  for (let i = 0; i < shown.length && found.length < limit; i += SEARCH_BATCH) {
    const batch = shown.slice(i, i + SEARCH_BATCH);
    const results = await Promise.all(
      batch.map(({ script }) => searchIn(page, script, query, args.regex === true, pattern)),
    );
    for (const [j, matches] of results.entries()) {
      if (!matches) {
        unsearched++;
        continue;
      }
      const { script, frame } = batch[j]!;
      total += matches.length;
      for (const match of matches) {
        if (found.length >= limit) break;
        const line = script.startLine + match.lineNumber + 1;
        found.push(`#${script.id} ${sourceName(script.url, frame)}:${line}: ${snippet(match.lineContent, pattern)}`);
      }
    }
  }
  const head = [
    // Not `"query": N`, which reads as a key and its value to redaction when the query names a secret.
    `search: ${total} match${total === 1 ? '' : 'es'} of ${JSON.stringify(query)} in ${shown.length} script${shown.length === 1 ? '' : 's'}`,
    total > found.length ? ` (first ${found.length} shown; raise limit or narrow with url)` : '',
    unsearched > 0 ? `, ${unsearched} could not be searched` : '',
    omitted > 0 ? `, ${omitted} from sites the policy keeps from you left out` : '',
  ].join('');
  return { text: [head, ...found].join('\n'), data: { matches: total, shown: found.length, omitted } };
}

interface SearchMatch {
  lineNumber: number;
  lineContent: string;
}

/**
 * The lines of one script that match, searched in the text a read shows (so a search finds, shows and counts no piece of
 * a secret, nor answers whether one holds the query); undefined when the script is gone or its renderer did not answer.
 * V8's own search over the raw text first picks the scripts worth fetching: a script it finds nothing in has nothing
 * but our masks to match after redaction.
 */
async function searchIn(
  page: PageContext,
  script: ScriptEntry,
  query: string,
  isRegex: boolean,
  pattern: RegExp,
): Promise<SearchMatch[] | undefined> {
  const asked = page.cdp
    .send<{ result: unknown[] }>(
      'Debugger.searchInContent',
      { scriptId: script.scriptId, query, isRegex, caseSensitive: false },
      script.sessionId,
    )
    .then(async ({ result }) => {
      if (result.length === 0) return [];
      const lines = shownLines(await scriptSource(page, script));
      return lines.flatMap((lineContent, lineNumber) =>
        pattern.test(lineContent) ? [{ lineNumber, lineContent }] : [],
      );
    });
  return withDeadline(
    asked.catch(() => undefined),
    SEARCH_MS,
    () => undefined,
  );
}

/**
 * A script's text as the model may see it, line by line: redacted whole before any line is picked, since a private
 * key's lines read alone are base64 redaction cannot tell from code. (A secret over several lines becomes one mask, so
 * lines after it are numbered that many lower, in a read and a search alike.)
 */
function shownLines(source: string): string[] {
  // A file's last newline ends its last line; it starts no line of its own.
  return redactText(source)
    .replace(/\r?\n$/, '')
    .split(/\r?\n/);
}

async function scriptSource(page: PageContext, script: ScriptEntry): Promise<string> {
  try {
    const { scriptSource } = await page.cdp.send<{ scriptSource: string }>(
      'Debugger.getScriptSource',
      { scriptId: script.scriptId },
      script.sessionId,
    );
    return scriptSource;
  } catch {
    throw new ToolError('NOT_FOUND', `Script #${script.id} is gone from the page.`, {
      next: 'Call `sources` to list the scripts of this page now.',
    });
  }
}

/** The same search in this process, to find where in a long line the match is. */
function matcher(query: string, isRegex: boolean): RegExp {
  try {
    return new RegExp(isRegex ? query : query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
  } catch (error) {
    throw new ToolError('BAD_ARGS', `query is not a valid regex: ${(error as Error).message}`);
  }
}

/**
 * The matching line (redacted with its whole script), trimmed; in a long (minified) line, only the text around the
 * match.
 */
function snippet(line: string, pattern: RegExp): string {
  const text = line.trim();
  if (text.length <= SNIPPET_SIDE * 2) return text;
  const at = Math.max(0, text.search(pattern));
  const start = Math.max(0, at - SNIPPET_SIDE);
  const end = Math.min(text.length, at + SNIPPET_SIDE);
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}

/** A script's file, and for an inline one the line its tag is on. */
function where(script: ScriptEntry, frame: Frame): string {
  const name = sourceName(script.url, frame);
  return script.startLine > 0 ? `${name}:${script.startLine + 1} (inline)` : name;
}
