// Stable error codes and the one error type every layer throws; each code carries a default next step for the model.

export const ERROR_CODES = {
  NO_BACKEND: 'No browser is available. Pair the extension or enable the fallback browser, then retry.',
  LAUNCH_FAILED: 'The fallback browser could not start. Check `status`, or pass --executable-path.',
  BRIDGE_UNAVAILABLE:
    'The extension bridge could not listen on its port. Quit the other chrome-mcp using it, or start with --port.',
  EXTENSION_DISCONNECTED: 'The extension disconnected mid-call. Retry: the next call reconnects or falls back.',
  BROWSER_CLOSED: 'The browser went away. Retry: the next call starts it again.',
  BACKPRESSURE: 'The link to the browser is saturated. Retry in a moment.',
  TIMEOUT: 'The browser did not answer in time. Retry, or raise `timeout`.',
  NO_TAB: 'No tab is selected. Call `tab_new` or `tab_use` first.',
  TAB_NOT_FOUND: 'That tab is gone. Call `tabs` to list open tabs.',
  STALE_TAB: 'That tab handle belongs to an earlier browser session. Call `tabs` for current handles.',
  NOT_OWNED: 'Only tabs this agent opened can be closed.',
  DETACHED: 'The debugger detached from the tab. Retry: the next call re-attaches.',
  DEVTOOLS_OPEN: 'DevTools is open on this tab. Ask the person to close DevTools, then retry.',
  REF_EXPIRED: 'That ref is from an older page. Call `snapshot` (or `find`) again and use the new ref.',
  REF_UNKNOWN: 'No such ref. Refs come from `snapshot` or `find`; call one of them again.',
  NOT_FOUND: 'No element matches. Call `snapshot` or `find` to see what is on the page.',
  AMBIGUOUS: 'Several elements match. Add `nth`, use a ref from `snapshot`, or narrow the selector.',
  FRAME_NOT_FOUND: 'No such frame. Call `frames` to list them.',
  FRAME_UNREADABLE: 'That frame cannot be read. Call `frames` to see why.',
  NOT_VISIBLE: 'The element has no visible box. Scroll, open its container, or `wait_for` it.',
  OBSCURED: 'Another element covers the target. Close the covering element (dialog, banner) first, or target it.',
  DISABLED:
    'The element is disabled. Do what enables it first (fill required fields, pick an option), or `wait_for` it.',
  NOT_EDITABLE: 'The target does not accept text. Target an input, textarea or editable element.',
  INPUT_NOT_LANDED: 'The keystrokes did not reach an editable element. Click the field first, then `type` again.',
  NOT_SELECT: 'The target is not a <select>. Use `click` for custom dropdowns.',
  OPTION_NOT_FOUND: 'No option with that value or label. Call `get_text` on the select to list options.',
  FILE_REFUSED:
    'Only regular files inside the folders the person allowed can be uploaded. Put the file in the uploads folder of the data dir (or ask the person to start chrome-mcp with --upload-dir), then pass its path.',
  NOT_FILE_INPUT:
    'The target is not a file input and clicking it opened no file chooser. Target the <input type=file> or the button that opens the chooser.',
  DOWNLOAD_FAILED:
    'Nothing was saved. Check the link or URL (`get_html` on the element), or download the URL it points to.',
  DOWNLOAD_TOO_LARGE:
    'The file is over the size cap and was not saved. Read the page instead, or ask the person to fetch it.',
  NAVIGATION_FAILED: 'The page failed to load. Check the URL, then retry.',
  EVAL_FAILED: 'The script could not run in the page. Check the expression and the frame.',
  PASSWORD_FIELD:
    'Scripts never run in a tab that shows a password field. Read the page with `get_text` or `snapshot`, and fill fields with `fill_form`.',
  PRELOADING_ON:
    "Chrome's 'Preload pages' setting is on and cannot be turned off here (a policy or another extension controls it), so scripts are refused in this browser: its own preloading could send what a script puts in a link. Reads, clicks, typing and forms still work. To run scripts, ask the person to lift that policy or disable that extension, then retry.",
  CLIPBOARD_REFUSED:
    "Paste, copy and cut keys are sent only on sites the person trusts: they read or overwrite the person's clipboard. Put text in with `type` or `fill_form`; read it with `get_text`.",
  DIALOG_OPEN: 'The page shows a dialog, and nothing runs in it until it is answered. Answer it with `dialog`.',
  PERSON_DIALOG:
    "The page shows a dialog that is the person's to answer (it opened while no agent drove the tab). Wait for them, or work in another tab.",
  DIALOG_UNREACHABLE:
    'The dialog opened before Chrome MCP attached to the tab, and Chrome lets no later debugger accept it. Dismiss it with `dialog {accept: false}` (the page reloads), or ask the person to answer it.',
  NO_DIALOG: 'Go on with the page: a call that opens a dialog says so, and `tabs` shows one still open.',
  POLICY_DENIED:
    'The site policy does not allow this there. Use an allowed site, or ask the person to change the rule for it.',
  DOMAIN_CONFIRMATION_REQUIRED:
    'The person has not decided about this site yet and is being asked. Retry after they answer.',
  HELD: "The act happened, but what it would send waits for the person's confirmation. Do not repeat it: wait for them; `status` shows held acts.",
  PLAN_NOT_APPROVED: 'The person has not approved your plan yet. Wait for them; `status` shows when it is approved.',
  BAD_ARGS: 'The arguments are invalid. Read the tool schema and call again.',
  UNKNOWN_TOOL: 'No such tool. Call tools/list.',
  TOOL_OFF: 'That tool is opt-in and off for this session. Ask the person to add its capability to --caps.',
  STOPPED: 'The call was stopped before it finished. Check the page (`snapshot`) before going on.',
  BATCH_STEP_FAILED: 'A batch step failed; steps after it did not run. Fix that step and run the rest.',
  TRACE_RUNNING: 'A performance trace already runs on this tab. Call `performance` with action stop first.',
  TRACE_NOT_RUNNING: 'No performance trace runs on this tab. Call `performance` with action start, then stop.',
  CDP_ERROR: 'The browser refused a command. Retry; if it persists, call `snapshot` to re-sync.',
  INTERNAL: 'Unexpected failure inside chrome-mcp. Retry; report it if it persists.',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The error every layer throws; `next` tells the model what to do about it. */
export class ToolError extends Error {
  readonly code: ErrorCode;
  readonly next: string;
  readonly data?: Record<string, unknown>;

  constructor(code: ErrorCode, message?: string, opts: { next?: string; data?: Record<string, unknown> } = {}) {
    super(message ?? ERROR_CODES[code]);
    this.name = 'ToolError';
    this.code = code;
    this.next = opts.next ?? ERROR_CODES[code];
    if (opts.data) this.data = opts.data;
  }

  /** The same error (code, next step, data) told with more context: where it happened, or what the call was doing. */
  reworded(message: string, next: string = this.next): ToolError {
    return new ToolError(this.code, message, { next, ...(this.data ? { data: this.data } : {}) });
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

/** Turns anything thrown into a ToolError without losing a code that is already there. */
export function toToolError(error: unknown): ToolError {
  if (error instanceof ToolError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ToolError('INTERNAL', message);
}
