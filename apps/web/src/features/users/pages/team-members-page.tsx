import { Download } from 'lucide-react';
import toast from 'react-hot-toast';
import { Button } from '../../../components/ui/button';
import { EmptyState, ErrorState } from '../../../components/ui/feedback';
import { VirtualGrid, type GridColumns } from '../../../components/ui/virtual-grid';
import { useUsers } from '../../../lib/get-users';
import { pagingOf } from '../../../lib/infinite-paging';
import { useDownloadUsersReport } from '../api/download-users-report';
import { UserCard, UserCardSkeleton } from '../components/user-card';

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
  const users = useUsers();
  const download = useDownloadUsersReport();

  function downloadReport() {
    download.mutate(undefined, {
      onSuccess: () => toast.success('Team report downloaded successfully'),
      onError: () => toast.error('Failed to download user details. Please try again.'),
    });
  }

  return (
    <section aria-labelledby="team-heading" className="flex flex-col gap-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="team-heading" className="text-xl font-semibold text-slate-900">
          Team Members
        </h1>
        <Button
          variant="secondary"
          onClick={downloadReport}
          disabled={download.isPending}
          aria-busy={download.isPending}
        >
          <Download size={16} aria-hidden />
          Download Report
        </Button>
      </div>
      <TeamGrid users={users} />
    </section>
  );
}

function TeamGrid({ users: { query, users } }: { users: ReturnType<typeof useUsers> }) {
  if (query.isPending) {
    return (
      <ul aria-busy="true" aria-label="Loading team members" className={grid}>
        {[0, 1, 2, 3, 4, 5].map((card) => (
          <UserCardSkeleton key={card} />
        ))}
      </ul>
    );
  }
  if (!users) {
    return (
      <ErrorState message="Failed to load team members." onRetry={() => void query.refetch()} />
    );
  }
  if (users.length === 0) return <EmptyState title="No team members yet" />;
  return (
    <VirtualGrid
      items={users}
      // The server does not count the members: the size is known once the last page is in.
      total={query.hasNextPage ? -1 : users.length}
      columns={gridColumns}
      estimateRowHeight={ESTIMATED_ROW_PX}
      keyOf={(user) => user._id}
      renderItem={(user) => <UserCard user={user} />}
      label="Team members"
      loadingMoreText="Loading more team members"
      loadMoreFailedText="More team members could not be loaded."
      {...pagingOf(query)}
    />
  );
}
