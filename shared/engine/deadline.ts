// Bounds work in time: a renderer busy in a script answers no CDP call at all, and a tool call must still end.

/** The work's result, or `late()` (its value, or its throw) once `ms` have passed; the work itself runs on. */
export async function withDeadline<T>(work: Promise<T>, ms: number, late: () => T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<T>((resolve, reject) => {
    timer = setTimeout(
      () => {
        try {
          resolve(late());
        } catch (error) {
          reject(error);
        }
      },
      Math.max(0, ms),
    );
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Why a frame or session fell silent, as the model reads it when it is reported as not readable. */
export function noAnswerWithin(ms: number): string {
  return `did not answer within ${ms / 1000} s (a busy script, a paused debugger or a modal dialog)`;
}
