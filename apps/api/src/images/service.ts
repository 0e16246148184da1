import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import { apiMessages } from '@task-manager/shared';
import type { Database } from '../db/tables.js';
import { BadRequest, HttpError, NotFound } from '../errors.js';
import { imageIdOf } from './links.js';
import {
  claimImage,
  deleteOwnImage,
  deleteUnclaimedImages,
  findImage,
  insertImage,
  unclaimedUsage,
} from './repository.js';

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Stored photos are at most this many pixels wide and high. */
export const MAX_IMAGE_SIDE = 512;
/** Refuse decompression bombs: a small file that claims a huge canvas. */
const MAX_INPUT_PIXELS = 40_000_000;

/**
 * Every upload is stored as WebP: one encoder whatever came in, lossy (so the size is bounded
 * even for noise, which no lossless format can shrink) and with an alpha channel (so a
 * transparent PNG or GIF stays transparent). Browsers have all shown WebP since 2020.
 */
export const STORED_IMAGE_TYPE = 'image/webp';
/**
 * At most this many bytes are stored per image. A 512 × 512 photo is 15-60 KB at the quality
 * below; only pictures as busy as noise are shrunk further to fit.
 */
export const MAX_STORED_IMAGE_BYTES = 100 * 1024;
const WEBP_QUALITY = 80;
/** The side of the last try, whose bytes no picture can push past the limit (64 × 64 × 4 raw). */
const LAST_RESORT_SIDE = 64;

/** The formats accepted as input. */
const ACCEPTED_FORMATS = new Set(['png', 'jpeg', 'webp', 'gif']);
/**
 * What GET /api/images/:id may answer: uploads are stored as WebP, and images stored before
 * that (2026-11-25) keep the type they were stored with.
 */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

/**
 * Uploads that no user has claimed yet may hold this many bytes together; past it, uploads are
 * refused (429) until the sweep deletes the old ones. Each image counts its bytes plus
 * COUNTED_BYTES_PER_IMAGE (its row), so a flood of tiny images is bounded in rows too (12,800).
 * Checked before each upload, not locked: uploads in flight at once may each pass, so the
 * total can exceed it by at most their number times MAX_STORED_IMAGE_BYTES.
 */
export const MAX_UNCLAIMED_IMAGE_BYTES = 50 * 1024 * 1024;
export const COUNTED_BYTES_PER_IMAGE = 4 * 1024;
/**
 * How long an upload may wait for a user to claim it as their photo before the sweep deletes
 * it. Sign-up uploads the photo a moment before it registers; an hour is room to spare, and
 * short enough that a flood of uploads frees the quota soon after it stops.
 */
export const UNCLAIMED_IMAGE_GRACE_MS = 60 * 60 * 1000;
/** How often each server process sweeps (see startImageSweep). */
export const IMAGE_SWEEP_INTERVAL_MS = 15 * 60 * 1000;
/** Rows deleted per sweeping transaction: short locks, however much there is to delete. */
const SWEEP_BATCH = 500;

export interface StoredImage {
  id: string;
  contentType: string;
  byteSize: number;
}

/**
 * Refuses an upload (429, with Retry-After) while the unclaimed uploads hold their quota: until
 * the oldest of them has passed its grace period and a sweep has run.
 */
export async function assertRoomForUpload(
  db: Kysely<Database>,
  quotaBytes: number = MAX_UNCLAIMED_IMAGE_BYTES,
  now: Date = new Date(),
): Promise<void> {
  const usage = await unclaimedUsage(db);
  const counted = usage.bytes + usage.count * COUNTED_BYTES_PER_IMAGE;
  if (counted < quotaBytes) return;
  const oldest = usage.oldestCreatedAt ? Date.parse(usage.oldestCreatedAt) : now.getTime();
  const freedAt = oldest + UNCLAIMED_IMAGE_GRACE_MS + IMAGE_SWEEP_INTERVAL_MS;
  const retryAfterSeconds = Math.max(60, Math.ceil((freedAt - now.getTime()) / 1000));
  throw new HttpError(429, apiMessages.uploadsFull, undefined, {
    code: 'uploads_full',
    retryAfterSeconds,
  });
}

/**
 * Decides the type from the bytes (never the name or declared type), re-encodes the image so
 * that metadata and anything hidden in it are dropped, bounds its size, and stores it in the
 * database so that no API process keeps local files. It belongs to no one until a user claims
 * it as their photo.
 */
export async function storeImage(db: Kysely<Database>, input: Buffer): Promise<StoredImage> {
  const output = await reencode(input);
  const id = randomUUID();
  await insertImage(db, {
    id,
    content_type: STORED_IMAGE_TYPE,
    data: output.data,
    byte_size: output.data.length,
    width: output.info.width,
    height: output.info.height,
    created_at: new Date().toISOString(),
    owner_id: null,
  });
  return { id, contentType: STORED_IMAGE_TYPE, byteSize: output.data.length };
}

async function reencode(input: Buffer) {
  const image = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
  // sharp could not read it (not an image, truncated, too large a canvas): a bad upload.
  const metadata = await image.metadata().catch(() => undefined);
  if (!metadata?.format || !ACCEPTED_FORMATS.has(metadata.format)) {
    throw BadRequest(apiMessages.imageType);
  }
  // Decoded once, upright and at most 512 px (at most 1 MB of pixels); each try encodes that.
  const pixels = await image
    .rotate()
    .resize(MAX_IMAGE_SIDE, MAX_IMAGE_SIDE, { fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true })
    .catch(() => {
      throw BadRequest(apiMessages.imageType);
    });
  const { width, height, channels } = pixels.info;
  const encode = (side: number) =>
    sharp(pixels.data, { raw: { width, height, channels } })
      .resize(side, side, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: WEBP_QUALITY })
      .toBuffer({ resolveWithObject: true });
  let side = Math.max(width, height);
  for (let attempt = 1; ; attempt++) {
    const output = await encode(side);
    if (output.data.length <= MAX_STORED_IMAGE_BYTES || side <= LAST_RESORT_SIDE) return output;
    // The bytes grow with the number of pixels: shrink both sides by the square root of the
    // excess, with a margin. One smaller try is almost always enough; the third is tiny.
    const scale = Math.sqrt(MAX_STORED_IMAGE_BYTES / output.data.length) * 0.9;
    side = attempt >= 2 ? LAST_RESORT_SIDE : Math.max(LAST_RESORT_SIDE, Math.floor(side * scale));
  }
}

/**
 * Makes `next` the user's photo and lets `previous` go (both stored paths, see storedImagePath),
 * inside the transaction that writes the user's row, after the row exists (the image then names
 * it as its owner). The new image must exist and be unclaimed or the user's own already; the
 * former photo is deleted at once, as no one else may show it.
 */
export async function changeProfileImage(
  trx: Kysely<Database>,
  userId: string,
  next: string | null,
  previous: string | null = null,
): Promise<void> {
  if (next !== null && next !== previous) {
    const claim = await claimImage(trx, imageIdOf(next) ?? '', userId);
    if (claim !== 'claimed') {
      const message =
        claim === 'missing' ? apiMessages.profileImageNotFound : apiMessages.profileImageTaken;
      throw BadRequest(message, [{ path: 'profileImageUrl', message }]);
    }
  }
  const former = previous === null ? undefined : imageIdOf(previous);
  if (former !== undefined && previous !== next) await deleteOwnImage(trx, former, userId);
}

/**
 * Deletes the uploads no user claimed within their grace period (before `now` minus `graceMs`),
 * in batches; answers how many. Run by every server process (startImageSweep), safely at once.
 */
export async function sweepUnclaimedImages(
  db: Kysely<Database>,
  options: { now?: Date; graceMs?: number } = {},
): Promise<number> {
  const now = options.now ?? new Date();
  const cutoff = new Date(now.getTime() - (options.graceMs ?? UNCLAIMED_IMAGE_GRACE_MS));
  let deleted = 0;
  for (;;) {
    const batch = await deleteUnclaimedImages(db, cutoff.toISOString(), SWEEP_BATCH);
    deleted += batch;
    if (batch < SWEEP_BATCH) return deleted;
  }
}

/** The images feature as the endpoints use it: uploads, the quota on unclaimed ones, reads. */
export class ImageService {
  constructor(
    private readonly db: Kysely<Database>,
    /** Bytes the unclaimed uploads may hold together (default MAX_UNCLAIMED_IMAGE_BYTES). */
    private readonly unclaimedQuotaBytes: number = MAX_UNCLAIMED_IMAGE_BYTES,
  ) {}

  assertRoomForUpload(): Promise<void> {
    return assertRoomForUpload(this.db, this.unclaimedQuotaBytes);
  }

  store(input: Buffer): Promise<StoredImage> {
    return storeImage(this.db, input);
  }

  async get(id: string): Promise<{ contentType: string; data: Buffer }> {
    const image = await findImage(this.db, id);
    if (!image) throw NotFound(apiMessages.imageNotFound);
    return { contentType: image.content_type, data: Buffer.from(image.data) };
  }
}
