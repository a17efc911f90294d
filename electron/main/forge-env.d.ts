// Constants Forge's Vite plugin defines in the main bundle for the renderer named "panel" (forge.config.ts): the dev
// server's URL under `electron-forge start`, undefined in a packaged build. Absent entirely in a plain `vite build`.
declare const PANEL_VITE_DEV_SERVER_URL: string | undefined;
