import jwt from 'jsonwebtoken';

export interface TokenClaims {
  sub: string;
  ver: number;
}

/** Only HS256 is accepted: `alg: none` and algorithm-confusion tokens fail verification. */
const ALGORITHM = 'HS256';

export interface TokenService {
  sign(claims: TokenClaims): string;
  /** The claims of a valid token, or null for a missing, tampered, expired or foreign one. */
  verify(token: string): TokenClaims | null;
}

export function createTokenService(secret: string, expiresIn: string): TokenService {
  const expiry = (
    /^\d+$/.test(expiresIn) ? Number(expiresIn) : expiresIn
  ) as jwt.SignOptions['expiresIn'];
  return {
    sign: (claims) => jwt.sign(claims, secret, { algorithm: ALGORITHM, expiresIn: expiry }),
    verify: (token) => {
      try {
        const payload = jwt.verify(token, secret, { algorithms: [ALGORITHM] });
        if (typeof payload !== 'object' || typeof payload.sub !== 'string') return null;
        const ver = (payload as Record<string, unknown>).ver;
        return { sub: payload.sub, ver: typeof ver === 'number' ? ver : -1 };
      } catch {
        return null;
      }
    },
  };
}
