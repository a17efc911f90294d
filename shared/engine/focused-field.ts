// Where keys sent to the tab land: the frame that holds focus and its focused element's state.
import type { Frame, FrameRegistry } from './frames.js';
import type { InputState } from './page/editing.js';

export interface Field {
  frame: Frame;
  state: InputState;
}

/**
 * The main frame unless focus sits in a child frame. Focus in a frame that may not be acted on refuses (POLICY_DENIED):
 * keys sent now would land there.
 */
export async function focusedField(frames: FrameRegistry): Promise<Field> {
  const list = await frames.list();
  const main = list[0]!;
  const state = await frames.call(main, 'inputState');
  if (!state.inChildFrame) return { frame: main, state };
  const states = await Promise.all(
    list.slice(1).map((frame) =>
      frames.call(frame, 'inputState').then(
        (child) => ({ frame, state: child }),
        () => undefined,
      ),
    ),
  );
  const focused = states.find((entry) => entry && entry.state.hasFocus && !entry.state.inChildFrame);
  if (focused) {
    frames.require(focused.frame, 'act');
    return focused;
  }
  // Focus sits in a frame we may not read.
  const hidden = list.slice(1).find((frame) => !frames.allows(frame, 'act'));
  if (hidden) frames.require(hidden, 'act');
  return { frame: main, state };
}
