// Opt-in tool sets: a tool that names one is listed and callable only when the person switches it on (the panel's
// Allowed sites screen, the policy file's `tools`) or a flag does (`--caps`), so the schema a model pays for stays small.
export const TOOL_CAPS = ['files', 'devtools', 'extra'] as const;
export type ToolCap = (typeof TOOL_CAPS)[number];
