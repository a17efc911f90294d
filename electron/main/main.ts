// The Electron main entry (Forge's Vite plugin builds it to .vite/build/main.js, package.json's main).
import { main } from './launch.js';

void main();
