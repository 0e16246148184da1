import { Download } from 'lucide-react';
import toast from 'react-hot-toast';
import { Button } from '../../../components/ui/button';
import { EmptyState, ErrorState } from '../../../components/ui/feedback';
import { useDownloadUsersReport } from '../api/download-users-report';
import { useUsers } from '../api/get-users';
import { UserCard, UserCardSkeleton } from '../components/user-card';

const grid = 'grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3';

/** /admin/users: every member with their task counts, and the team report. */
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

function TeamGrid({ users }: { users: ReturnType<typeof useUsers> }) {
  if (users.isPending) {
    return (
      <ul aria-busy="true" aria-label="Loading team members" className={grid}>
        {[0, 1, 2, 3, 4, 5].map((card) => (
          <UserCardSkeleton key={card} />
        ))}
      </ul>
    );
  }
  if (users.isError) {
    return (
      <ErrorState message="Failed to load team members." onRetry={() => void users.refetch()} />
    );
  }
  if (users.data.length === 0) return <EmptyState title="No team members yet" />;
  return (
    <ul className={grid}>
      {users.data.map((user) => (
        <UserCard key={user._id} user={user} />
      ))}
    </ul>
  );
}
