import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
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

/** `kept`: how many verified tokens it remembers (VERIFIED_TOKENS_KEPT). */
export function createTokenService(
  secret: string,
  expiresIn: string,
  kept = VERIFIED_TOKENS_KEPT,
): TokenService {
  const expiry = (
    /^\d+$/.test(expiresIn) ? Number(expiresIn) : expiresIn
  ) as jwt.SignOptions['expiresIn'];
  // A KeyObject built once: given the secret as a string, jsonwebtoken first tries (and fails)
  // to read it as a public key on every call, which cost ~0.5 ms of CPU per request.
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  const verified = verifiedTokens(kept);
  return {
    sign: ({ sub, ver }) =>
      jwt.sign({ sub, ver }, key, {
        algorithm: ALGORITHM,
        expiresIn: expiry,
        jwtid: randomUUID(),
      }),
    verify: (token) => {
      const known = verified.get(token);
      if (known) {
        // jsonwebtoken's own test: expired from its `exp` second on.
        if (Math.floor(Date.now() / 1000) < known.exp) return known.claims;
        verified.delete(token);
        return null;
      }
      const checked = verifySignedToken(token, key);
      if (checked) verified.set(token, { claims: Object.freeze(checked.claims), exp: checked.exp });
      return checked?.claims ?? null;
    },
  };
}

/**
 * How many verified tokens each process remembers. A token comes back with every request of its
 * session, and checking its signature again (an HMAC and jsonwebtoken's parsing) cost about
 * 0.09 ms of a 0.9 ms request. Only tokens that verified are kept, keyed by their whole text, so
 * what is remembered is exactly what was checked; the expiry is checked again on every use, and
 * a revoked token or an ended session is refused by the session check that follows (auth
 * middleware), which is not cached. The oldest goes first past this bound.
 */
export const VERIFIED_TOKENS_KEPT = 4096;

function verifiedTokens(bound: number) {
  const kept = new Map<string, { claims: TokenClaims; exp: number }>();
  return {
    get: (token: string) => kept.get(token),
    set(token: string, entry: { claims: TokenClaims; exp: number }) {
      if (kept.size >= bound) kept.delete(kept.keys().next().value!);
      kept.set(token, entry);
    },
    delete: (token: string) => kept.delete(token),
  };
}

/** The claims of `token` and its `exp` (seconds), when its signature and claims are valid. */
function verifySignedToken(
  token: string,
  key: KeyObject,
): { claims: TokenClaims; exp: number } | null {
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
    claims: {
      sub,
      ver: typeof ver === 'number' ? ver : -1,
      jti,
      expiresAt: new Date(exp * 1000).toISOString(),
    },
    exp,
  };
}
