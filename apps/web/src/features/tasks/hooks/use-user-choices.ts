import { useState } from 'react';
import { useUsers } from '../../../lib/get-users';
import { pagingOf } from '../../../lib/infinite-paging';
import type { UserChoices } from '../components/user-picker';
import { useDebouncedValue } from './use-debounced-value';

/** The search asks the server once typing pauses this long, not on every key. */
export const USER_SEARCH_DEBOUNCE_MS = 300;

/** Who can be given a task: every active person, admins included (deactivated people are not). */
const ASSIGNABLE = { active: true } as const;

/** The people the user picker offers, searched on the server and loaded page by page. */
export function useUserChoices(): UserChoices {
  const [search, setSearch] = useState('');
  const queried = useDebouncedValue(search, USER_SEARCH_DEBOUNCE_MS);
  const { query, users } = useUsers(queried, ASSIGNABLE);
  return {
    users: users ?? [],
    loading: query.isPending,
    failed: query.isError && !query.isFetchNextPageError,
    onRetry: () => void query.refetch(),
    search,
    onSearch: setSearch,
    searching: search.trim() !== queried.trim() || query.isPlaceholderData,
    paging: pagingOf(query),
  };
}
