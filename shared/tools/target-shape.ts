// The element-target fields every element tool accepts (see TOOLS.md "Targets"); validated once here.
import { z } from 'zod';

// Field descriptions are left out on purpose: tools/list is paid for every turn, and the snapshot tool's
// description explains targets once for all tools.
export const frameField = z.union([z.number(), z.string()]).optional();

export const targetShape = {
  ref: z.string().optional(),
  selector: z.string().optional(),
  role: z.string().optional(),
  name: z.string().optional(),
  nth: z.number().optional(),
  frame: frameField,
  element: z.string().max(200).optional(),
};

export const pointShape = {
  x: z.number().optional(),
  y: z.number().optional(),
};

export const tabShape = {
  tab: z.string().optional(),
};
