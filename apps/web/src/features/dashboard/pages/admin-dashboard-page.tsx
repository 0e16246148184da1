import { paths } from '../../../config/paths';
import { useAdminDashboard } from '../api/get-admin-dashboard';
import { DashboardView } from '../components/dashboard-view';
import { TeamActivity } from '../components/team-activity';

/** /admin/dashboard: every task's figures; See All goes to Manage Tasks. */
export function AdminDashboardPage() {
  return (
    <DashboardView query={useAdminDashboard()} seeAllPath={paths.admin.tasks}>
      <TeamActivity />
    </DashboardView>
  );
}
