// Draws the app's icons for the web app manifest (public/icons/*.png) from the same mark as
// favicon.svg, with sharp (a dependency of the API). Run once after changing the mark:
//   node apps/web/scripts/make-icons.mjs
// The PNGs are committed: the build does not need sharp.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const webDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const require = createRequire(path.join(webDir, '../api/package.json'));
const sharp = require('sharp');

const BLUE = '#1d4ed8';
const tick = (scale, offset) =>
  `<path transform="translate(${offset} ${offset}) scale(${scale})" d="M9 16.5l4.5 4.5L23 11.5" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>`;

/** The favicon's rounded square with its tick, on a transparent ground. */
const rounded = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="${BLUE}"/>${tick(1, 0)}</svg>`;
/**
 * Maskable: the launcher cuts its own shape, so the colour fills the square and the tick stays
 * inside the safe zone (the middle 80 %).
 */
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${BLUE}"/>${tick(0.7, 4.8)}</svg>`;

const out = path.join(webDir, 'public/icons');
fs.mkdirSync(out, { recursive: true });
const icons = [
  ['icon-192.png', rounded, 192],
  ['icon-512.png', rounded, 512],
  ['maskable-192.png', maskable, 192],
  ['maskable-512.png', maskable, 512],
  ['apple-touch-icon.png', maskable, 180],
];
for (const [name, svg, size] of icons) {
  await sharp(Buffer.from(svg), { density: (72 * size) / 32 })
    .resize(size, size)
    .png({ compressionLevel: 9, palette: true })
    .toFile(path.join(out, name));
  console.log(`public/icons/${name}: ${fs.statSync(path.join(out, name)).size} bytes`);
}
