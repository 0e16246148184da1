import type { AssigneeOption } from '../task-form-rules';
import type { UserChoices } from './user-picker';

/** The user picker's choices when every user is on one page and no search is typed (tests). */
export function onePageOfUsers(users: readonly AssigneeOption[]): UserChoices {
  return {
    users,
    loading: false,
    failed: false,
    onRetry: () => {},
    search: '',
    onSearch: () => {},
    searching: false,
    paging: { canLoadMore: false, loadingMore: false, loadMoreFailed: false, onLoadMore: () => {} },
  };
}
