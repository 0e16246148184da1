import { z } from 'zod';
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, pageCursorSchema } from '@task-manager/shared';

/** The paging parameters of the list endpoints, as documented (the shared schemas read text). */
export const pagingDoc = {
  limit: z
    .int()
    .min(1)
    .max(PAGE_LIMIT_MAX)
    .default(PAGE_LIMIT_DEFAULT)
    .meta({ description: 'How many items per page' }),
  cursor: pageCursorSchema.meta({
    description: 'Where the page starts: the cursor the previous page ended with; none: the first',
  }),
};
