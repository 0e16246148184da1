import { paths } from '../../../config/paths';
import { useUserDashboard } from '../api/get-user-dashboard';
import { DashboardView } from '../components/dashboard-view';

/** /user/dashboard: the figures of the member's own tasks; See All goes to My Tasks. */
export function UserDashboardPage() {
  return <DashboardView query={useUserDashboard()} seeAllPath={paths.user.tasks} />;
}
