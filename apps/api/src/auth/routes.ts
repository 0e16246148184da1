import express, { Router, type RequestHandler } from 'express';
import {
  apiMessages,
  loginSchema,
  registerSchema,
  updateProfileSchema,
} from '@task-manager/shared';
import { currentUser } from '../http/request-user.js';
import { withStoredImagePath } from '../images/links.js';
import type { AuthLimits } from '../http/rate-limit.js';
import { parseInput } from '../http/validate.js';
import type { UserService } from '../users/service.js';
import { currentToken } from './middleware.js';
import type { AuthService } from './service.js';

/**
 * The largest body these routes take. The biggest valid one, a sign-up, is under 3 KB (a
 * 2,048-character photo link, a name, an e-mail and a password); the 1 MB of the other routes
 * would only be work for an attacker to hand us before we refuse.
 */
export const AUTH_BODY_LIMIT = '16kb';

/** The body parser of these routes: it runs after the per-IP (or per-user) limit. */
const authBody = express.json({ limit: AUTH_BODY_LIMIT });

export function authRoutes(deps: {
  auth: AuthService;
  users: UserService;
  requireAuth: RequestHandler;
  limits: Pick<AuthLimits, 'signIn' | 'signUp' | 'profile'>;
}): Router {
  const router = Router();
  const { auth, users, requireAuth, limits } = deps;

  router.post(
    '/register',
    limits.signUp.perIp,
    authBody,
    ...limits.signUp.failures,
    async (req, res) => {
      const input = withStoredImagePath(parseInput(registerSchema, req.body), req);
      res.status(201).json(await auth.register(input));
    },
  );

  router.post(
    '/login',
    limits.signIn.perIp,
    authBody,
    ...limits.signIn.failures,
    async (req, res) => {
      res.json(await auth.login(parseInput(loginSchema, req.body)));
    },
  );

  router.post('/logout', requireAuth, async (req, res) => {
    await auth.logout(currentUser(req).id, currentToken(req));
    res.json({ message: apiMessages.loggedOut });
  });

  router.get('/profile', requireAuth, async (req, res) => {
    res.json(await users.get(currentUser(req).id));
  });

  router.put(
    '/profile',
    requireAuth,
    limits.profile.perUser,
    authBody,
    ...limits.profile.failures,
    async (req, res) => {
      const input = withStoredImagePath(parseInput(updateProfileSchema, req.body), req);
      res.json(await auth.updateProfile(currentUser(req).id, input));
    },
  );

  return router;
}
