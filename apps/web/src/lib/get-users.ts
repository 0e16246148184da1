import { NEXT_CURSOR_HEADER, type UserWithTaskCounts } from '@task-manager/shared';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api } from './api-client';
import { uniqueById } from './infinite-paging';
import { queryKeys } from './query-keys';

/*
 * GET /api/users lives here, not in a feature, because two features show it: the Team Members
 * page (users) and the task form's user picker (tasks). Features do not import each other.
 */

/** Members per page: a few screens of cards, or of rows in the user picker. */
export const USER_PAGE_SIZE = 50;

/** Narrows the list: one role, or only active (or only deactivated) people. */
export interface UserFilters {
  role?: 'admin' | 'member';
  active?: boolean;
}

export interface UserPage {
  users: UserWithTaskCounts[];
  /** The cursor of the next page; null on the last page. */
  nextCursor: string | null;
}

/**
 * One page of the members with their task counts (admin only), by name; with `search` (sent as
 * `q`), only those whose name or e-mail contains it. The body stays a plain array (as before
 * paging), so the next page's cursor comes in a response header.
 */
export async function getUserPage(
  search: string,
  cursor: string | null,
  filters: UserFilters = {},
): Promise<UserPage> {
  const params: Record<string, string | number> = { limit: USER_PAGE_SIZE };
  if (search) params.q = search;
  if (filters.role) params.role = filters.role;
  if (filters.active !== undefined) params.active = String(filters.active);
  if (cursor) params.cursor = cursor;
  const response = await api.get<UserWithTaskCounts[]>('/api/users', { params });
  const nextCursor = response.headers[NEXT_CURSOR_HEADER.toLowerCase()];
  return { users: response.data, nextCursor: nextCursor || null };
}

export function usersQueryOptions(search = '', filters: UserFilters = {}) {
  const trimmed = search.trim();
  return infiniteQueryOptions({
    queryKey: queryKeys.users.list(trimmed, filters),
    queryFn: ({ pageParam }) => getUserPage(trimmed, pageParam, filters),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
}

/**
 * The members matching `search` (every member when empty), page by page. While another search
 * loads, the previous results stay (placeholderData) instead of flashing a skeleton per key.
 */
export function useUsers(search = '', filters: UserFilters = {}) {
  const query = useInfiniteQuery({
    ...usersQueryOptions(search, filters),
    placeholderData: keepPreviousData,
  });
  const pages = query.data?.pages;
  const users = useMemo(
    () => (pages ? uniqueById(pages.map((page) => page.users)) : undefined),
    [pages],
  );
  return { query, users };
}
