// The scripts the late-escape tests have an eval run in both backends: each leaves a timer that, a second after the
// eval returned, makes the page send to `target` some way no tab session sees, and sets a marker once it has tried;
// or a function the page calls later, whenever the test says.

/** The statement that starts a blob shared worker which fetches `target`, then calls `answered` in the page. */
function startSharedWorker(target: string, answered: string): string {
  const worker = `onconnect = (event) => { const port = event.ports[0];
    fetch('${target}').catch(() => undefined).then(() => port.postMessage(0)); };`;
  return `const shared = new SharedWorker(URL.createObjectURL(new Blob([${JSON.stringify(worker)}], { type: 'text/javascript' })));
    shared.port.onmessage = ${answered};`;
}

/** A blob shared worker the timer starts, which fetches `target`; the page's `sharedDone` turns true once it answered. */
export function lateSharedWorker(target: string): string {
  return `setTimeout(() => { ${startSharedWorker(target, '() => (window.sharedDone = true)')} }, 1000); 0`;
}

/**
 * Leaves `window.laterShared()` and `window.laterMessage()` in the page: called by the page at any time, they start a
 * blob shared worker that fetches `target`, or post `target` to the site's service worker (egress-late-sw.js fetches
 * what it is posted), and resolve once the worker answered (its fetch settled).
 */
export function laterSenders(target: string): string {
  return `window.laterShared = () => new Promise((resolve) => { ${startSharedWorker(target, '() => resolve(true)')} });
    window.laterMessage = () => new Promise((resolve) => { navigator.serviceWorker.onmessage = () => resolve(true);
      navigator.serviceWorker.controller.postMessage('${target}'); }); 0`;
}
