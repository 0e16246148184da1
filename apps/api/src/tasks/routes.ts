import { Router, type RequestHandler } from 'express';
import {
  apiMessages,
  createTaskSchema,
  taskListQuerySchema,
  updateChecklistItemSchema,
  updateChecklistSchema,
  updateStatusSchema,
  updateTaskSchema,
} from '@task-manager/shared';
import { pathId } from '../http/path-id.js';
import { currentUser } from '../http/request-user.js';
import { parseInput } from '../http/validate.js';
import type { TaskService } from './service.js';

export function taskRoutes(deps: {
  tasks: TaskService;
  requireAuth: RequestHandler;
  requireAdmin: RequestHandler;
}): Router {
  const router = Router();
  const { tasks, requireAuth, requireAdmin } = deps;
  router.use(requireAuth);

  // Fixed paths first, so they are never read as a task id.
  router.get('/dashboard-data', requireAdmin, async (_req, res) => {
    res.json(await tasks.dashboard({}));
  });

  router.get('/user-dashboard-data', async (req, res) => {
    res.json(await tasks.dashboard({ assigneeId: currentUser(req).id }));
  });

  router.get('/', async (req, res) => {
    res.json(await tasks.list(currentUser(req), parseInput(taskListQuerySchema, req.query)));
  });

  router.post('/', requireAdmin, async (req, res) => {
    const task = await tasks.create(currentUser(req).id, parseInput(createTaskSchema, req.body));
    res.status(201).json({ message: apiMessages.taskCreated, task });
  });

  router.get('/:id', async (req, res) => {
    res.json(await tasks.get(currentUser(req), pathId(req, apiMessages.taskNotFound)));
  });

  router.put('/:id', requireAdmin, async (req, res) => {
    const task = await tasks.update(
      pathId(req, apiMessages.taskNotFound),
      parseInput(updateTaskSchema, req.body),
    );
    res.json({ message: apiMessages.taskUpdated, task });
  });

  router.delete('/:id', requireAdmin, async (req, res) => {
    await tasks.delete(pathId(req, apiMessages.taskNotFound));
    res.json({ message: apiMessages.taskDeleted });
  });

  router.put('/:id/todo', async (req, res) => {
    const { todoChecklist } = parseInput(updateChecklistSchema, req.body);
    const task = await tasks.updateChecklist(
      currentUser(req),
      pathId(req, apiMessages.taskNotFound),
      todoChecklist,
    );
    res.json({ message: apiMessages.checklistUpdated, task });
  });

  router.patch('/:id/todo/:itemId', async (req, res) => {
    const { completed } = parseInput(updateChecklistItemSchema, req.body);
    const taskId = pathId(req, apiMessages.taskNotFound);
    const itemId = pathId(req, apiMessages.checklistItemNotFound, 'itemId');
    const task = await tasks.setChecklistItem(currentUser(req), taskId, itemId, completed);
    res.json({ message: apiMessages.checklistUpdated, task });
  });

  router.put('/:id/status', async (req, res) => {
    const { status } = parseInput(updateStatusSchema, req.body);
    const task = await tasks.updateStatus(
      currentUser(req),
      pathId(req, apiMessages.taskNotFound),
      status,
    );
    res.json({ message: apiMessages.statusUpdated, task });
  });

  return router;
}
