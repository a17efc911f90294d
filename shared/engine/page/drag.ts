// In-page side of a drag: whether the press and move the engine sent started an HTML5 drag in this frame.

interface DragWatch {
  /** The last dragstart this document saw since the engine last asked; undefined: none. */
  event: Event | undefined;
}

/**
 * Arms the watch before the engine presses: a capture listener on window, the first stop of a dragstart, notes it. The
 * page's own listeners may still cancel it, so `dragStarted` reads `defaultPrevented` after they have all run.
 */
export function watchDragStart(): void {
  const scope = globalThis as unknown as { __cmDrag?: DragWatch };
  if (!scope.__cmDrag) {
    const watch: DragWatch = { event: undefined };
    scope.__cmDrag = watch;
    addEventListener('dragstart', (event) => (watch.event = event), true);
  }
  scope.__cmDrag.event = undefined;
}

/**
 * Whether a drag started here since `watchDragStart`: a dragstart came, and no listener cancelled it. Answered after
 * the next frame, before which the renderer may still hold the engine's last move (moves are handled per frame); a
 * frame that never comes (a throttled tab) is waited for 500 ms.
 */
export async function dragStarted(): Promise<boolean> {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 500);
    requestAnimationFrame(() => {
      clearTimeout(timer);
      setTimeout(resolve, 0);
    });
  });
  const event = (globalThis as unknown as { __cmDrag?: DragWatch }).__cmDrag?.event;
  return event !== undefined && !event.defaultPrevented;
}
