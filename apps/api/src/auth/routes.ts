import { Router, type RequestHandler } from 'express';
import {
  apiMessages,
  loginSchema,
  registerSchema,
  updateProfileSchema,
} from '@task-manager/shared';
import { currentUser } from '../http/request-user.js';
import { parseInput } from '../http/validate.js';
import type { UserService } from '../users/service.js';
import { currentToken } from './middleware.js';
import type { AuthService } from './service.js';

export function authRoutes(deps: {
  auth: AuthService;
  users: UserService;
  requireAuth: RequestHandler;
  limits: { signIn: RequestHandler[]; signUp: RequestHandler[] };
}): Router {
  const router = Router();
  const { auth, users, requireAuth } = deps;

  router.post('/register', ...deps.limits.signUp, async (req, res) => {
    res.status(201).json(await auth.register(parseInput(registerSchema, req.body)));
  });

  router.post('/login', ...deps.limits.signIn, async (req, res) => {
    res.json(await auth.login(parseInput(loginSchema, req.body)));
  });

  router.post('/logout', requireAuth, async (req, res) => {
    await auth.logout(currentUser(req).id, currentToken(req));
    res.json({ message: apiMessages.loggedOut });
  });

  router.get('/profile', requireAuth, async (req, res) => {
    res.json(await users.get(currentUser(req).id));
  });

  router.put('/profile', requireAuth, async (req, res) => {
    res.json(
      await auth.updateProfile(currentUser(req).id, parseInput(updateProfileSchema, req.body)),
    );
  });

  return router;
}
