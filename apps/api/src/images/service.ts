import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import { apiMessages } from '@task-manager/shared';
import type { Database } from '../db/tables.js';
import { BadRequest } from '../errors.js';

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Stored photos are at most this many pixels wide and high. */
export const MAX_IMAGE_SIDE = 512;
/** Refuse decompression bombs: a small file that claims a huge canvas. */
const MAX_INPUT_PIXELS = 40_000_000;

const OUTPUT_TYPES = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
} as const;
type AcceptedFormat = keyof typeof OUTPUT_TYPES;
/** What GET /api/images/:id may answer: every stored image is one of these. */
export const IMAGE_TYPES = Object.values(OUTPUT_TYPES);

function isAccepted(format: string | undefined): format is AcceptedFormat {
  return format !== undefined && Object.hasOwn(OUTPUT_TYPES, format);
}

export interface StoredImage {
  id: string;
  contentType: string;
}

/**
 * Decides the type from the bytes (never the name or declared type), re-encodes the image so
 * that metadata and anything hidden in it are dropped, bounds its size, and stores it in the
 * database so that no API process keeps local files.
 */
export async function storeImage(db: Kysely<Database>, input: Buffer): Promise<StoredImage> {
  const { format, output } = await reencode(input);
  const id = randomUUID();
  await db
    .insertInto('images')
    .values({
      id,
      content_type: OUTPUT_TYPES[format],
      data: output.data,
      byte_size: output.data.length,
      width: output.info.width,
      height: output.info.height,
      created_at: new Date().toISOString(),
    })
    .execute();
  return { id, contentType: OUTPUT_TYPES[format] };
}

async function reencode(input: Buffer) {
  const image = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
  // sharp could not read it (not an image, truncated, too large a canvas): a bad upload.
  const metadata = await image.metadata().catch(() => undefined);
  const format = metadata?.format;
  if (!isAccepted(format)) throw BadRequest(apiMessages.imageType);
  const output = await image
    .rotate()
    .resize(MAX_IMAGE_SIDE, MAX_IMAGE_SIDE, { fit: 'inside', withoutEnlargement: true })
    .toFormat(format)
    .toBuffer({ resolveWithObject: true })
    .catch(() => {
      throw BadRequest(apiMessages.imageType);
    });
  return { format, output };
}

export function findImage(db: Kysely<Database>, id: string) {
  return db
    .selectFrom('images')
    .select(['content_type', 'data'])
    .where('id', '=', id)
    .executeTakeFirst();
}
