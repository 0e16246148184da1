import { z } from 'zod';
import { isoDateTime } from './common.js';

/** The multipart field of POST /api/tasks/:id/files. */
export const TASK_FILE_FIELD = 'file';

export const taskFileSchema = z
  .object({
    _id: z.string(),
    taskId: z.string(),
    name: z.string().meta({ description: 'The file name as uploaded' }),
    size: z.number().int().meta({ description: 'In bytes' }),
    contentType: z.string(),
    uploadedBy: z.string().nullable().meta({ description: 'The uploader; null once deleted' }),
    createdAt: isoDateTime,
  })
  .meta({ id: 'TaskFile', description: 'A file attached to a task (GET /api/files/{id}).' });
export type TaskFile = z.infer<typeof taskFileSchema>;
