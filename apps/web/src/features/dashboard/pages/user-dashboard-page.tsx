/** Being built (issue 3). */
export function UserDashboardPage() {
  return <h1 className="text-xl font-semibold">UserDashboardPage</h1>;
}
