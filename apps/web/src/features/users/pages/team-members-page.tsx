import { Download } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { Button } from '../../../components/ui/button';
import { EmptyState, ErrorState } from '../../../components/ui/feedback';
import { VirtualGrid, type GridColumns } from '../../../components/ui/virtual-grid';
import { inputClass } from '../../../components/ui/field';
import { useUsers, type UserFilters } from '../../../lib/get-users';
import { useT } from '../../../lib/i18n';
import { pagingOf } from '../../../lib/infinite-paging';
import { useDownloadUsersReport } from '../api/download-users-report';
import {
  ManageMemberButton,
  ManageMemberDialog,
  useManagedMember,
  type Member,
} from '../components/member-actions';
import { UserCard, UserCardSkeleton } from '../components/user-card';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { notify } from '../../../lib/notify';

/** One column on a phone, two from sm, three from xl (the same in both forms). */
const grid = 'grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3';
const gridColumns: GridColumns = { base: 1, sm: 2, xl: 3 };
/** A card's height before it is measured. */
const ESTIMATED_ROW_PX = 170;

/**
 * /admin/users: every member with their task counts, and the team report. The cards load page by
 * page as the person scrolls, and only the rows near the screen are rendered.
 */
export function TeamMembersPage() {
  const [search, setSearch] = useState('');
  const [role, setRole] = useState<'' | 'admin' | 'member'>('');
  const [active, setActive] = useState<'' | 'true' | 'false'>('');
  const filters: UserFilters = {
    ...(role && { role }),
    ...(active && { active: active === 'true' }),
  };
  const users = useUsers(useDebouncedValue(search, 300), filters);
  const download = useDownloadUsersReport();
  const managed = useManagedMember(users.users);
  const t = useT();

  function downloadReport() {
    download.mutate(undefined, {
      onSuccess: () => toast.success(t('team.reportDownloaded')),
      onError: () => notify('error', t('team.reportFailed')),
    });
  }

  return (
    <section aria-labelledby="team-heading" className="flex flex-col gap-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="team-heading" className="text-xl font-semibold text-slate-900">
          {t('team.heading')}
        </h1>
        <Button
          variant="secondary"
          onClick={downloadReport}
          disabled={download.isPending}
          aria-busy={download.isPending}
        >
          <Download size={16} aria-hidden />
          {t('team.downloadReport')}
        </Button>
      </div>
      <div role="search" aria-label={t('team.findPeople')} className="flex flex-wrap gap-3">
        <input
          type="search"
          aria-label={t('team.search')}
          placeholder={t('team.search')}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          className={`${inputClass} max-w-xs`}
        />
        <select
          aria-label={t('team.role')}
          value={role}
          onChange={(event) => setRole(event.target.value as typeof role)}
          className={`${inputClass} w-auto`}
        >
          <option value="">{t('team.everyRole')}</option>
          <option value="admin">{t('team.admins')}</option>
          <option value="member">{t('team.members')}</option>
        </select>
        <select
          aria-label={t('team.status')}
          value={active}
          onChange={(event) => setActive(event.target.value as typeof active)}
          className={`${inputClass} w-auto`}
        >
          <option value="">{t('team.anyStatus')}</option>
          <option value="true">{t('team.active')}</option>
          <option value="false">{t('common.deactivated')}</option>
        </select>
      </div>
      <TeamGrid users={users} onManage={managed.manage} />
      <ManageMemberDialog member={managed.member} onClose={managed.close} />
    </section>
  );
}

function TeamGrid({
  users: { query, users },
  onManage,
}: {
  users: ReturnType<typeof useUsers>;
  onManage: (member: Member) => void;
}) {
  const t = useT();
  if (query.isPending) {
    return (
      <ul aria-busy="true" aria-label={t('team.loading')} className={grid}>
        {[0, 1, 2, 3, 4, 5].map((card) => (
          <UserCardSkeleton key={card} />
        ))}
      </ul>
    );
  }
  if (!users) {
    return <ErrorState message={t('team.loadFailed')} onRetry={() => void query.refetch()} />;
  }
  if (users.length === 0) return <EmptyState title={t('team.empty')} />;
  return (
    <VirtualGrid
      items={users}
      // The server does not count the members: the size is known once the last page is in.
      total={query.hasNextPage ? -1 : users.length}
      columns={gridColumns}
      estimateRowHeight={ESTIMATED_ROW_PX}
      keyOf={(user) => user._id}
      renderItem={(user) => (
        <UserCard user={user} actions={<ManageMemberButton member={user} onManage={onManage} />} />
      )}
      label={t('team.list')}
      loadingMoreText={t('team.loadingMore')}
      loadMoreFailedText={t('team.loadMoreFailed')}
      {...pagingOf(query)}
    />
  );
}
