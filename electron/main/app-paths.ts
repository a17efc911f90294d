// Where the app finds what it ships beside its code: the built panel, the preload, the icons, the extension. Computed
// once in main.ts (the entry knows its own folder) and passed down.
import { join } from 'node:path';

export interface AppPaths {
  /** The folder of the built main entry (.vite/build under Forge). */
  mainDir: string;
  /** app.getAppPath(): the project folder unpackaged, the app.asar packaged. */
  appPath: string;
  /** process.resourcesPath, where electron-builder and Forge put extra resources. */
  resourcesPath: string;
  isPackaged: boolean;
}

export function preloadPath(paths: AppPaths): string {
  return join(paths.mainDir, 'preload.js');
}

/** Where the built panel may be: the renderer build's own folder, else Forge's default renderer output. */
export function panelCandidates(paths: AppPaths): string[] {
  return [join(paths.appPath, 'dist', 'renderer'), join(paths.mainDir, '..', 'renderer', 'panel')];
}

/** An icon from build/icons: shipped as the extra resource `icons` once packaged, read from the project folder before. */
export function iconPath(paths: AppPaths, name: string): string {
  return paths.isPackaged ? join(paths.resourcesPath, 'icons', name) : join(paths.appPath, 'build', 'icons', name);
}

/** The unpacked extension the person loads into Chrome: the extra resource `extension` once packaged, dist/ before. */
export function extensionDir(paths: AppPaths): string {
  return paths.isPackaged ? join(paths.resourcesPath, 'extension') : join(paths.appPath, 'dist', 'extension');
}
