import bcrypt from 'bcryptjs';

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, hash: string): Promise<boolean>;
}

/** A hash of a random password, compared against when no user matches, so timing is the same. */
let dummyHash: Promise<string> | undefined;

export function createPasswordHasher(cost: number): PasswordHasher {
  return {
    hash: (password) => bcrypt.hash(password, cost),
    verify: async (password, hash) => {
      return bcrypt.compare(password, hash);
    },
  };
}

export function timingDummyHash(cost: number): Promise<string> {
  dummyHash ??= bcrypt.hash(`no-user-${Math.random()}`, cost);
  return dummyHash;
}
