// inspect: one element as DevTools' Elements panel shows it (attributes, box model, computed styles, matching rules,
// event listeners), read on its own frame's session, out-of-process frames included.
import { ToolError } from '../../protocol/errors.js';
import { redactText } from '../../redact/text.js';
import type { OperationContext, OperationResult } from '../../protocol/operations.js';
import type { InspectArgs } from '../../tools/args.js';
import { cascadeLines, type MatchedStyles, type SheetHeader } from '../css-cascade.js';
import type { Frame } from '../frames.js';
import type { PageContext } from '../page-context.js';
import { sourceName, sourceReadable } from '../source-access.js';
import { callOnElement, resolveTarget, type ElementHandle } from '../targets.js';
import { boxLines, type BoxModel } from '../box-model.js';
import { nodeInMainWorld } from '../main-world.js';

/** What a developer looks at first; `styles` asks for others. Empty values (a mixed border) are left out. */
const DEFAULT_STYLES = [
  'display',
  'position',
  'z-index',
  'box-sizing',
  'margin',
  'padding',
  'border',
  'color',
  'background-color',
  'font',
  'line-height',
  'opacity',
  'visibility',
  'overflow',
  'cursor',
  'pointer-events',
];
const ATTRIBUTE_CHARS = 240;
const MAX_LISTENERS = 40;

interface Listener {
  type: string;
  useCapture: boolean;
  passive: boolean;
  once: boolean;
  scriptId: string;
  lineNumber: number;
  columnNumber: number;
}

export async function inspect(page: PageContext, args: InspectArgs, _ctx: OperationContext): Promise<OperationResult> {
  const handle = await resolveTarget(page, args, 'read');
  try {
    const facts = await callOnElement(page, handle, 'inspectFacts', [args.styles ?? DEFAULT_STYLES]);
    const [box, rules, listeners] = await Promise.all([
      boxModel(page, handle),
      matchedRules(page, handle),
      // Listeners name their handler by V8's script id: the script log knows which file that is.
      page.scripts.start().then(() => listenersOf(page, handle)),
    ]);
    const { frame } = handle;
    const styles = facts.styles.filter(([, value]) => args.styles !== undefined || value !== '');
    const lines = [
      `${args.element ?? `<${facts.tag}>`} in f${frame.ordinal}${frame.ordinal === 0 ? '' : ` (${sourceName(frame.url, frame)})`}`,
      `attributes: ${facts.attributes.map(([name, value]) => attribute(name, value)).join(' ') || 'none'}`,
      ...boxLines(box),
      `styles: ${styles.map(([name, value]) => `${name}: ${value || '(none)'}`).join('; ')}`,
      ...(rules.length > 0 ? ['rules (most specific first):', ...rules] : ["rules: none of the page's own"]),
      ...listenerLines(page, frame, listeners),
    ];
    return { text: lines.join('\n') };
  } finally {
    page.frames.release(handle.frame, [handle.objectId]);
  }
}

function attribute(name: string, value: string): string {
  // Redacted whole before it is cut: a token cut in two no longer has the shape redaction knows.
  const whole = redactText(`${name}="${value.replace(/"/g, '&quot;')}"`);
  return whole.length > ATTRIBUTE_CHARS ? `${whole.slice(0, ATTRIBUTE_CHARS)}…"` : whole;
}

async function boxModel(page: PageContext, handle: ElementHandle): Promise<BoxModel | undefined> {
  // An element with no layout box (display: none, not rendered) has no box model: CDP answers with an error.
  return page.cdp
    .send<{ model: BoxModel }>('DOM.getBoxModel', { objectId: handle.objectId }, handle.frame.sessionId)
    .then(({ model }) => model)
    .catch(() => undefined);
}

// One inspection at a time per session: the DOM and CSS domains are switched on for it and off after, and a second
// CSS.enable while on would not tell the stylesheets again.
const inspecting = new WeakMap<PageContext, Map<string, Promise<unknown>>>();

function exclusive<T>(page: PageContext, sessionId: string | undefined, work: () => Promise<T>): Promise<T> {
  const queues = inspecting.get(page) ?? new Map<string, Promise<unknown>>();
  inspecting.set(page, queues);
  const key = sessionId ?? '';
  const run = (queues.get(key) ?? Promise.resolve()).then(work, work);
  queues.set(
    key,
    run.catch(() => undefined),
  );
  return run;
}

/**
 * The rule lines for the element. DOM and CSS stay off between calls: on, they stream every change of the nodes and
 * sheets they told, on every page the agent ever inspected.
 */
function matchedRules(page: PageContext, handle: ElementHandle): Promise<string[]> {
  const { frame } = handle;
  const session = frame.sessionId;
  return exclusive(page, session, async () => {
    const headers = new Map<string, SheetHeader>();
    const off = page.cdp.on((event) => {
      if (event.method !== 'CSS.styleSheetAdded' || event.sessionId !== session) return;
      const header = event.params['header'] as SheetHeader;
      headers.set(header.styleSheetId, header);
    });
    try {
      await page.cdp.send('DOM.enable', {}, session);
      // Every stylesheet of the session's documents is told before CSS.enable answers.
      await page.cdp.send('CSS.enable', {}, session);
      // A node id exists only for nodes pushed to us, and a push needs the document asked for first.
      await page.cdp.send('DOM.getDocument', { depth: 0 }, session);
      const { nodeId } = await page.cdp.send<{ nodeId: number }>(
        'DOM.requestNode',
        { objectId: handle.objectId },
        session,
      );
      if (!nodeId) throw new ToolError('NOT_FOUND', 'The element left the page while it was inspected.');
      const matched = await page.cdp.send<MatchedStyles>('CSS.getMatchedStylesForNode', { nodeId }, session);
      return cascadeLines(
        matched,
        headers,
        (sheet) => sourceReadable(page, frame, sheet.sourceURL),
        (url) => sourceName(url, frame),
      );
    } finally {
      off();
      await page.cdp.send('CSS.disable', {}, session).catch(() => undefined);
      await page.cdp.send('DOM.disable', {}, session).catch(() => undefined);
      // Asking for the document dropped the breakpoints that tell who sets a frame's srcdoc: they stand again first.
      await page.trail.domReset(session);
    }
  });
}

/**
 * The element's own listeners. DOMDebugger tells only those of the world the element's object lives in, so the
 * element is resolved again in its page's main world: ours, in our isolated world, are never among them.
 */
async function listenersOf(page: PageContext, handle: ElementHandle): Promise<Listener[]> {
  const session = handle.frame.sessionId;
  const objectId = await nodeInMainWorld(page.cdp, session, handle.objectId);
  if (objectId === undefined) return [];
  try {
    const { listeners } = await page.cdp.send<{ listeners: Listener[] }>(
      'DOMDebugger.getEventListeners',
      { objectId },
      session,
    );
    return listeners;
  } finally {
    void page.cdp.send('Runtime.releaseObject', { objectId }, session).catch(() => undefined);
  }
}

function listenerLines(page: PageContext, frame: Frame, listeners: Listener[]): string[] {
  if (listeners.length === 0) return ['listeners: none'];
  const lines = listeners.slice(0, MAX_LISTENERS).map((listener) => {
    const flags = [listener.useCapture && 'capture', listener.once && 'once', listener.passive && 'passive'].filter(
      Boolean,
    );
    const script = page.scripts.byScriptId(frame.sessionId, listener.scriptId);
    // V8 counts a handler's line in its file (an inline script's lines are the page's), from 0. A handler whose
    // script is not listed (code with no URL, an agent's eval) or not readable is named by nothing.
    const source =
      script && sourceReadable(page, frame, script.url)
        ? `${sourceName(script.url, frame)}:${listener.lineNumber + 1}:${listener.columnNumber + 1} (#${script.id})`
        : 'source not listed';
    return `  ${listener.type}${flags.length > 0 ? ` (${flags.join(', ')})` : ''} ${source}`;
  });
  if (listeners.length > MAX_LISTENERS) lines.push(`  … ${listeners.length - MAX_LISTENERS} more`);
  return ['listeners:', ...lines];
}
