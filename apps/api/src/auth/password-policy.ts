import { createRequire } from 'node:module';
import { passwordWeakness, validationMessages as m } from '@task-manager/shared';
import { BadRequest } from '../errors.js';

/**
 * The most common passwords (about 18,000 of 8 characters or more), from zxcvbn-ts's maintained
 * list, read once on first use. Lower case: "Password1" is as guessable as "password1".
 */
let commonPasswords: Set<string> | undefined;

function loadCommonPasswords(): Set<string> {
  const require = createRequire(import.meta.url);
  const { dictionary } = require('@zxcvbn-ts/language-common') as {
    dictionary: Record<'passwords-common', string[]>;
  };
  return new Set(
    dictionary['passwords-common']
      .filter((password) => password.length >= 8)
      .map((password) => password.toLowerCase()),
  );
}

export function isCommonPassword(password: string): boolean {
  commonPasswords ??= loadCommonPasswords();
  return commonPasswords.has(password.toLowerCase());
}

/**
 * Refuses a new password that is too easy to guess, with the reason: one character repeated,
 * only spaces, the account's own e-mail address or name, or one of the most common passwords.
 * `field` names the body field in the error (password or newPassword).
 */
export function assertPasswordAcceptable(
  password: string,
  account: { email?: string; name?: string },
  field: string,
): void {
  const weakness =
    passwordWeakness(password, account) ??
    (isCommonPassword(password) ? m.passwordCommon : undefined);
  if (weakness) throw BadRequest(weakness, [{ path: field, message: weakness }]);
}
