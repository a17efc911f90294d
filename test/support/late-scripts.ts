// The scripts the late-escape tests have an eval run in both backends: each leaves a timer that, a second after the
// eval returned, makes the page send to `target` some way no tab session sees, and sets a marker once it has tried.

/** A blob shared worker the timer starts, which fetches `target`; the page's `sharedDone` turns true once it answered. */
export function lateSharedWorker(target: string): string {
  const worker = `onconnect = (event) => { const port = event.ports[0];
    fetch('${target}').catch(() => undefined).then(() => port.postMessage(0)); };`;
  return `setTimeout(() => {
    const shared = new SharedWorker(URL.createObjectURL(new Blob([${JSON.stringify(worker)}], { type: 'text/javascript' })));
    shared.port.onmessage = () => (window.sharedDone = true);
  }, 1000); 0`;
}
