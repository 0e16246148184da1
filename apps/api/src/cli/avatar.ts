import sharp from 'sharp';

/**
 * Demo profile photos: initials on a coloured circle. The letters are drawn as strokes rather
 * than set in a font, because slim server images (node:*-slim) have no fonts at all and librsvg
 * would render the text as nothing.
 *
 * Each glyph is polylines on a 4 × 6 grid (x to the right, y down): points "x,y" separated by
 * spaces, polylines separated by "|".
 */
const GLYPHS: Record<string, string> = {
  A: '0,6 2,0 4,6 | 0.8,3.6 3.2,3.6',
  B: '0,3 0,0 3,0 4,0.75 4,2.25 3,3 0,3 0,6 3,6 4,5.25 4,3.75 3,3',
  C: '4,0.75 3,0 1,0 0,1 0,5 1,6 3,6 4,5.25',
  D: '0,0 0,6 2.5,6 4,4.5 4,1.5 2.5,0 0,0',
  E: '4,0 0,0 0,6 4,6 | 0,3 3,3',
  F: '4,0 0,0 0,6 | 0,3 3,3',
  G: '4,0.75 3,0 1,0 0,1 0,5 1,6 3,6 4,5 4,3.2 2.4,3.2',
  H: '0,0 0,6 | 4,0 4,6 | 0,3 4,3',
  I: '1,0 3,0 | 2,0 2,6 | 1,6 3,6',
  J: '4,0 4,5 3,6 1,6 0,5',
  K: '0,0 0,6 | 4,0 0,3.6 | 1.3,2.5 4,6',
  L: '0,0 0,6 4,6',
  M: '0,6 0,0 2,3.2 4,0 4,6',
  N: '0,6 0,0 4,6 4,0',
  O: '1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,1 1,0',
  P: '0,6 0,0 3,0 4,0.75 4,2.25 3,3 0,3',
  Q: '1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,1 1,0 | 2.6,4.6 4,6',
  R: '0,6 0,0 3,0 4,0.75 4,2.25 3,3 0,3 | 2,3 4,6',
  S: '4,0.75 3,0 1,0 0,0.75 0,2.25 1,3 3,3 4,3.75 4,5.25 3,6 1,6 0,5.25',
  T: '0,0 4,0 | 2,0 2,6',
  U: '0,0 0,5 1,6 3,6 4,5 4,0',
  V: '0,0 2,6 4,0',
  W: '0,0 1,6 2,2.5 3,6 4,0',
  X: '0,0 4,6 | 4,0 0,6',
  Y: '0,0 2,3 4,0 | 2,3 2,6',
  Z: '0,0 4,0 0,6 4,6',
};

/** "Priya Raman" → "PR"; one word gives one letter. Only A–Z can be drawn. */
export function initialsOf(name: string): string {
  const words = name
    .normalize('NFD')
    .replace(/[^A-Za-z\s]/g, '')
    .split(/\s+/)
    .filter(Boolean);
  const first = words[0]?.[0] ?? '';
  const last = words.length > 1 ? (words[words.length - 1]?.[0] ?? '') : '';
  return (first + last).toUpperCase();
}

const SIZE = 128;
const UNIT = SIZE * 0.062;
const GAP = 1.8;

export function avatarSvg(name: string, background: string): string {
  const letters = [...initialsOf(name)];
  const width = letters.length * 4 + (letters.length - 1) * GAP;
  const left = (SIZE - width * UNIT) / 2;
  const top = (SIZE - 6 * UNIT) / 2;
  const paths = letters.flatMap((letter, index) => {
    const glyph = GLYPHS[letter];
    if (!glyph) throw new Error(`No glyph for "${letter}" (in "${name}")`);
    const x0 = left + index * (4 + GAP) * UNIT;
    return glyph.split('|').map((line) => {
      const points = line
        .trim()
        .split(/\s+/)
        .map((point) => {
          const [x, y] = point.split(',').map(Number) as [number, number];
          return `${(x0 + x * UNIT).toFixed(1)} ${(top + y * UNIT).toFixed(1)}`;
        });
      return `M${points.join(' L')}`;
    });
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}">` +
    `<circle cx="${SIZE / 2}" cy="${SIZE / 2}" r="${SIZE / 2}" fill="${background}"/>` +
    `<path d="${paths.join(' ')}" fill="none" stroke="#ffffff" stroke-width="${(UNIT * 1.05).toFixed(1)}" ` +
    `stroke-linecap="round" stroke-linejoin="round"/></svg>`
  );
}

/** The avatar as a small PNG or WebP, ready for the image store. */
export function renderAvatar(
  name: string,
  background: string,
  format: 'png' | 'webp',
): Promise<Buffer> {
  const image = sharp(Buffer.from(avatarSvg(name, background)));
  return (format === 'png' ? image.png() : image.webp({ quality: 90 })).toBuffer();
}
