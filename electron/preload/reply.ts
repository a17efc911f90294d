// How a control call's answer crosses IPC: Electron keeps only an Error's message across `invoke`, so a refusal
// travels as data and the preload turns it back into the rejected { code, message } the bridge promises.
export type IpcReply = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } };
