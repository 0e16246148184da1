import { createHash } from 'node:crypto';
// Native bcrypt hashes on libuv's thread pool: the event loop stays free while a sign-in is
// checked, and several sign-ins use both cores. Its npm package ships prebuilt binaries, so no
// compiler runs at install (its install script stays off: pnpm.ignoredBuiltDependencies).
import bcrypt from 'bcrypt';

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, hash: string): Promise<boolean>;
}

/** bcrypt reads only the first 72 bytes of its input and silently ignores the rest. */
const BCRYPT_MAX_BYTES = 72;

/**
 * Passwords may be up to 128 characters (up to 512 bytes of UTF-8): a longer one is first reduced
 * to its SHA-256 digest (44 base64 characters), so that every character counts. Shorter ones are
 * hashed as they are, so existing hashes stay valid.
 */
function bcryptInput(password: string): string {
  return Buffer.byteLength(password, 'utf8') > BCRYPT_MAX_BYTES
    ? createHash('sha256').update(password, 'utf8').digest('base64')
    : password;
}

/** A hash of a random password, compared against when no user matches, so timing is the same. */
let dummyHash: Promise<string> | undefined;

export function createPasswordHasher(cost: number): PasswordHasher {
  return {
    hash: (password) => bcrypt.hash(bcryptInput(password), cost),
    verify: async (password, hash) => {
      return bcrypt.compare(bcryptInput(password), hash);
    },
  };
}

export function timingDummyHash(cost: number): Promise<string> {
  dummyHash ??= bcrypt.hash(`no-user-${Math.random()}`, cost);
  return dummyHash;
}
