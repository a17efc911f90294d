// A fresh random hex token, for names and marks a page must not guess (a script's tag, a judged document's key).
export function randomHex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
