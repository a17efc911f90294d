// Electron Forge: `npm start` (electron-forge start) and `electron-forge package`. Vite builds main, preload and the
// panel; the fuses lock the packaged binary down. Installers are made by electron-builder (electron-builder.yml) from
// the same build.
import type { ForgeConfig } from '@electron-forge/shared-types';
import { FusesPlugin } from '@electron-forge/plugin-fuses';
import { VitePlugin } from '@electron-forge/plugin-vite';
import { FuseV1Options, FuseVersion } from '@electron/fuses';

/** What goes into app.asar: the Vite output, the built panel, runtime dependencies (pruned by the packager), package.json. */
const KEEP = ['/.vite', '/dist/renderer', '/node_modules', '/package.json'];

const config: ForgeConfig = {
  packagerConfig: {
    name: 'Chrome MCP',
    executableName: 'chrome-mcp-app',
    appBundleId: 'dev.chrome-mcp.app',
    icon: 'build/icon',
    asar: true,
    // A menu-bar app: no Dock icon on macOS, in tray mode and helper mode alike.
    extendInfo: { LSUIElement: true },
    extraResource: ['dist/extension', 'build/icons'],
    // A function (not a list) so Forge's Vite plugin keeps it: everything not in KEEP stays out of the package.
    ignore: (file: string) =>
      Boolean(file) &&
      !KEEP.some((kept) => file === kept || file.startsWith(`${kept}/`) || kept.startsWith(`${file}/`)),
  },
  rebuildConfig: {},
  // No Forge makers: installers (dmg, nsis, AppImage, deb) come from electron-builder.yml.
  makers: [],
  plugins: [
    new VitePlugin({
      build: [
        { entry: 'electron/main/main.ts', config: 'vite.main.config.mts', target: 'main' },
        { entry: 'electron/preload/preload.ts', config: 'vite.preload.config.mts', target: 'preload' },
      ],
      renderer: [{ name: 'panel', config: 'renderer/vite.config.mts' }],
    }),
    // Fuses are flipped in the packaged binary, where no runtime code can turn them back.
    new FusesPlugin({
      version: FuseVersion.V1,
      // The helper runs as the app with --mcp-helper, never as Node: nothing needs ELECTRON_RUN_AS_NODE.
      [FuseV1Options.RunAsNode]: false,
      [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
      [FuseV1Options.EnableNodeCliInspectArguments]: false,
      [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
      [FuseV1Options.OnlyLoadAppFromAsar]: true,
      // The panel is served on app://, never file://.
      [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
    }),
  ],
};

export default config;
