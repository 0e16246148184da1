import {
  NEXT_CURSOR_HEADER,
  type Activity,
  type Comment,
  type CreateCommentInput,
  type TaskFile,
} from '@task-manager/shared';
import {
  infiniteQueryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/download';
import { invalidateAfter } from '../../../lib/invalidate-after';
import { queryKeys } from '../../../lib/query-keys';

/** Items per page of a task's comments and history. */
const PAGE_SIZE = 50;

interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

async function getPage<T>(url: string, cursor: string | null): Promise<Page<T>> {
  const params: Record<string, string | number> = { limit: PAGE_SIZE };
  if (cursor) params.cursor = cursor;
  const response = await api.get<T[]>(url, { params });
  const next = response.headers[NEXT_CURSOR_HEADER.toLowerCase()];
  return { items: response.data, nextCursor: next || null };
}

const taskPath = (taskId: string) => `/api/tasks/${encodeURIComponent(taskId)}`;

export function commentsQueryOptions(taskId: string) {
  return infiniteQueryOptions({
    queryKey: queryKeys.tasks.comments(taskId),
    queryFn: ({ pageParam }) => getPage<Comment>(`${taskPath(taskId)}/comments`, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
}

export function activityQueryOptions(taskId: string) {
  return infiniteQueryOptions({
    queryKey: queryKeys.tasks.activity(taskId),
    queryFn: ({ pageParam }) => getPage<Activity>(`${taskPath(taskId)}/activity`, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
}

export const useComments = (taskId: string) => useInfiniteQuery(commentsQueryOptions(taskId));
export const useActivity = (taskId: string) => useInfiniteQuery(activityQueryOptions(taskId));

export interface Person {
  _id: string;
  name: string;
  profileImageUrl: string | null;
}

/** The people who can see the task: whom a comment may mention. */
export function usePeople(taskId: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.tasks.people(taskId),
    queryFn: async () => (await api.get<Person[]>(`${taskPath(taskId)}/people`)).data,
    enabled,
    staleTime: 60_000,
  });
}

/** A comment, an edit or a file changes the task's history, its files and lists' counts. */
function useTaskMutation<Input, Output>(taskId: string, run: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.tasks.comments(taskId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.tasks.activity(taskId) }),
      ]),
  });
}

export const useAddComment = (taskId: string) =>
  useTaskMutation(
    taskId,
    async (input: CreateCommentInput) =>
      (await api.post<Comment>(`${taskPath(taskId)}/comments`, input)).data,
  );

export const useEditComment = (taskId: string) =>
  useTaskMutation(
    taskId,
    async ({ id, ...input }: CreateCommentInput & { id: string }) =>
      (await api.put<Comment>(`/api/comments/${encodeURIComponent(id)}`, input)).data,
  );

export const useDeleteComment = (taskId: string) =>
  useTaskMutation(taskId, async (id: string) => {
    await api.delete(`/api/comments/${encodeURIComponent(id)}`);
  });

/** Files change the task itself (its `files`), so the task and the lists are fetched again. */
function useFileMutation<Input, Output>(taskId: string, run: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () =>
      Promise.all([
        invalidateAfter(queryClient, 'taskChange'),
        queryClient.invalidateQueries({ queryKey: queryKeys.tasks.activity(taskId) }),
      ]),
  });
}

export const useUploadFile = (taskId: string) =>
  useFileMutation(taskId, async (file: File) => {
    const form = new FormData();
    form.append('file', file);
    return (await api.post<TaskFile>(`${taskPath(taskId)}/files`, form)).data;
  });

export const useDeleteFile = (taskId: string) =>
  useFileMutation(taskId, async (id: string) => {
    await api.delete(`/api/files/${encodeURIComponent(id)}`);
  });

export const downloadTaskFile = (file: TaskFile) =>
  downloadFile(`/api/files/${encodeURIComponent(file._id)}`, file.name);
