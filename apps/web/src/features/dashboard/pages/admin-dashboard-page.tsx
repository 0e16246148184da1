/** Being built (issue 3). */
export function AdminDashboardPage() {
  return <h1 className="text-xl font-semibold">AdminDashboardPage</h1>;
}
