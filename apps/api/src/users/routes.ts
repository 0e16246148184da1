import { Router, type RequestHandler } from 'express';
import {
  apiMessages,
  createUserSchema,
  NEXT_CURSOR_HEADER,
  updateUserSchema,
  userListQuerySchema,
} from '@task-manager/shared';
import { Forbidden } from '../errors.js';
import { pathId } from '../http/path-id.js';
import { currentUser } from '../http/request-user.js';
import { parseInput } from '../http/validate.js';
import { withStoredImagePath } from '../images/links.js';
import { toApiUser } from './repository.js';
import type { UserService } from './service.js';

export function userRoutes(deps: {
  users: UserService;
  requireAuth: RequestHandler;
  requireAdmin: RequestHandler;
}): Router {
  const router = Router();
  const { users, requireAuth, requireAdmin } = deps;

  // The body stays the spec's array of users; the next page is named in a header.
  router.get('/', requireAuth, requireAdmin, async (req, res) => {
    const page = await users.listMembers(parseInput(userListQuerySchema, req.query));
    if (page.nextCursor) res.set(NEXT_CURSOR_HEADER, page.nextCursor);
    res.json(page.users);
  });

  router.post('/', requireAuth, requireAdmin, async (req, res) => {
    const input = withStoredImagePath(parseInput(createUserSchema, req.body), req);
    const row = await users.createByAdmin(input);
    res.status(201).json(toApiUser(row));
  });

  // An admin may read anyone; a member only themself.
  router.get('/:id', requireAuth, async (req, res) => {
    const user = currentUser(req);
    if (user.role !== 'admin' && user.id !== req.params.id) throw Forbidden();
    res.json(await users.get(pathId(req, apiMessages.userNotFound)));
  });

  router.put('/:id', requireAuth, requireAdmin, async (req, res) => {
    const input = withStoredImagePath(parseInput(updateUserSchema, req.body), req);
    res.json(await users.update(pathId(req, apiMessages.userNotFound), input, currentUser(req).id));
  });

  router.delete('/:id', requireAuth, requireAdmin, async (req, res) => {
    await users.delete(pathId(req, apiMessages.userNotFound));
    res.json({ message: apiMessages.userDeleted });
  });

  return router;
}
