/** Every task query key, from one factory: mutations invalidate `taskKeys.all`. */
export const taskKeys = {
  all: ['tasks'] as const,
  lists: () => [...taskKeys.all, 'list'] as const,
  list: (status: string | undefined) => [...taskKeys.lists(), status ?? 'All'] as const,
  detail: (id: string) => [...taskKeys.all, 'detail', id] as const,
};
