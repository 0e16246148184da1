import { createSecretKey, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';

/** What a token says about its session. */
export interface TokenClaims {
  sub: string;
  ver: number;
  /** Unique per token, so that one token can be ended (logout) while the others stay valid. */
  jti: string;
  /** When the token expires, ISO-8601: how long its revocation must be remembered. */
  expiresAt: string;
}

/** Only HS256 is accepted: `alg: none` and algorithm-confusion tokens fail verification. */
const ALGORITHM = 'HS256';

export interface TokenService {
  sign(claims: Pick<TokenClaims, 'sub' | 'ver'>): string;
  /**
   * The claims of a valid token, or null for a missing, tampered, expired or foreign one, and for
   * one without the claims every token of ours has (a string `jti`, a numeric `exp`).
   */
  verify(token: string): TokenClaims | null;
}

export function createTokenService(secret: string, expiresIn: string): TokenService {
  const expiry = (
    /^\d+$/.test(expiresIn) ? Number(expiresIn) : expiresIn
  ) as jwt.SignOptions['expiresIn'];
  // A KeyObject built once: given the secret as a string, jsonwebtoken first tries (and fails)
  // to read it as a public key on every call, which cost ~0.5 ms of CPU per request.
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  return {
    sign: ({ sub, ver }) =>
      jwt.sign({ sub, ver }, key, {
        algorithm: ALGORITHM,
        expiresIn: expiry,
        jwtid: randomUUID(),
      }),
    verify: (token) => {
      let payload: string | jwt.JwtPayload;
      try {
        payload = jwt.verify(token, key, { algorithms: [ALGORITHM] });
      } catch {
        return null;
      }
      if (typeof payload !== 'object') return null;
      const { sub, ver, jti, exp } = payload as Record<string, unknown>;
      if (typeof sub !== 'string' || typeof jti !== 'string' || jti === '') return null;
      // Beyond ±8.64e12 s a Date is invalid; no token of ours gets there.
      if (typeof exp !== 'number' || !(Math.abs(exp) <= 8.64e12)) return null;
      return {
        sub,
        ver: typeof ver === 'number' ? ver : -1,
        jti,
        expiresAt: new Date(exp * 1000).toISOString(),
      };
    },
  };
}
