// One tray app per user: a second launch hands its arguments to the first (which shows its panel) and quits.
import { app } from 'electron';
import { BACKGROUND_FLAG } from './helper-mode.js';

/** True when this process holds the lock and should go on starting; false when it is quitting in favour of the first. */
export function setupSingleInstance(onSecondLaunch: (argv: string[]) => void): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on('second-instance', (_event, argv) => onSecondLaunch(argv));
  return true;
}

/** A launch by the person shows the panel; one the helper made to get a core up stays in the tray. */
export function launchedByPerson(argv: readonly string[]): boolean {
  return !argv.includes(BACKGROUND_FLAG);
}
