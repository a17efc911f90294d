// The flag that lists every opt-in tool: for runs that cover the whole catalog rather than the default set.
import { TOOL_CAPS } from '../../shared/policy/tool-caps.js';

export const ALL_CAPS = ['--caps', TOOL_CAPS.join(',')] as const;
