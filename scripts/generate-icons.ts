// Draws the app's mark (a ring — the page being watched — and a pointer) as SVG and rasterises it to the PNGs the app
// and the installers use, written with node:zlib alone: build/icon.png (1024), build/icon-512.png, and the tray icons
// (template: black on transparent for macOS's menu bar; plain: the coloured mark for Windows and Linux) at 16 and 32 px.
// Run: npx tsx scripts/generate-icons.ts
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';

type Point = [number, number];
type Rgba = [number, number, number, number];

const BACKGROUND: Rgba = [15, 118, 110, 255];
const WHITE: Rgba = [255, 255, 255, 255];
const BLACK: Rgba = [0, 0, 0, 255];

// The mark in a unit square.
const PLATE = { x0: 0.06, y0: 0.06, x1: 0.94, y1: 0.94, r: 0.2 };
const RING = { cx: 0.44, cy: 0.44, outer: 0.27, inner: 0.17 };
const POINTER: Point[] = [
  [0.54, 0.54],
  [0.9, 0.67],
  [0.73, 0.73],
  [0.67, 0.9],
];

function inPlate(x: number, y: number): boolean {
  const { x0, y0, x1, y1, r } = PLATE;
  if (x < x0 || x > x1 || y < y0 || y > y1) return false;
  const dx = Math.max(x0 + r - x, 0, x - (x1 - r));
  const dy = Math.max(y0 + r - y, 0, y - (y1 - r));
  return dx * dx + dy * dy <= r * r;
}

function inRing(x: number, y: number): boolean {
  const d = Math.hypot(x - RING.cx, y - RING.cy);
  return d <= RING.outer && d >= RING.inner;
}

function inPolygon(x: number, y: number, points: readonly Point[]): boolean {
  let inside = false;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const [xi, yi] = points[i]!;
    const [xj, yj] = points[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function inMark(x: number, y: number): boolean {
  return inRing(x, y) || inPolygon(x, y, POINTER);
}

/** RGBA pixels, 4×4 supersampled: the plate (when `plate`) under the mark in `ink`. */
function render(size: number, plate: boolean, ink: Rgba): Buffer {
  const pixels = Buffer.alloc(size * size * 4);
  const n = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let plateHits = 0;
      let markHits = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const x = (px + (sx + 0.5) / n) / size;
          const y = (py + (sy + 0.5) / n) / size;
          if (plate && inPlate(x, y)) plateHits++;
          if (inMark(x, y)) markHits++;
        }
      }
      const under = plateHits / (n * n);
      const over = markHits / (n * n);
      // "over" compositing of the mark on the plate, straight alpha.
      const alpha = over + under * (1 - over);
      const offset = (py * size + px) * 4;
      for (let c = 0; c < 3; c++) {
        const value = alpha === 0 ? 0 : (ink[c]! * over + BACKGROUND[c]! * under * (1 - over)) / alpha;
        pixels[offset + c] = Math.round(value);
      }
      pixels[offset + 3] = Math.round(alpha * 255);
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG of RGBA pixels: 8 bits per channel, colour type 6, no filtering. */
export function encodePng(size: number, pixels: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8;
  header[9] = 6;
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) pixels.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function svg(plate: boolean, ink: string): string {
  const s = (v: number) => +(v * 1024).toFixed(1);
  const { x0, y0, x1, y1, r } = PLATE;
  const ringPath =
    `M ${s(RING.cx - RING.outer)} ${s(RING.cy)} a ${s(RING.outer)} ${s(RING.outer)} 0 1 0 ${s(2 * RING.outer)} 0 a ${s(RING.outer)} ${s(RING.outer)} 0 1 0 ${-s(2 * RING.outer)} 0 Z ` +
    `M ${s(RING.cx - RING.inner)} ${s(RING.cy)} a ${s(RING.inner)} ${s(RING.inner)} 0 1 1 ${s(2 * RING.inner)} 0 a ${s(RING.inner)} ${s(RING.inner)} 0 1 1 ${-s(2 * RING.inner)} 0 Z`;
  const plateRect = plate
    ? `  <rect x="${s(x0)}" y="${s(y0)}" width="${s(x1 - x0)}" height="${s(y1 - y0)}" rx="${s(r)}" fill="rgb(${BACKGROUND.slice(0, 3).join(',')})"/>\n`
    : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1024 1024" width="1024" height="1024">
${plateRect}  <path d="${ringPath}" fill="${ink}" fill-rule="evenodd"/>
  <polygon points="${POINTER.map(([x, y]) => `${s(x)},${s(y)}`).join(' ')}" fill="${ink}"/>
</svg>
`;
}

function main(): void {
  const root = join(import.meta.dirname, '..', 'build');
  const icons = join(root, 'icons');
  mkdirSync(icons, { recursive: true });
  writeFileSync(join(root, 'icon.svg'), svg(true, 'white'));
  writeFileSync(join(root, 'tray-template.svg'), svg(false, 'black'));
  writeFileSync(join(root, 'icon.png'), encodePng(1024, render(1024, true, WHITE)));
  writeFileSync(join(root, 'icon-512.png'), encodePng(512, render(512, true, WHITE)));
  for (const [name, size] of [
    ['', 16],
    ['@2x', 32],
  ] as const) {
    writeFileSync(join(icons, `trayTemplate${name}.png`), encodePng(size, render(size, false, BLACK)));
    writeFileSync(join(icons, `tray${name}.png`), encodePng(size, render(size, true, WHITE)));
  }
}

main();
