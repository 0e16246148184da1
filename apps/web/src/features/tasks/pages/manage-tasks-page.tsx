/** Being built (issue 3). */
export function ManageTasksPage() {
  return <h1 className="text-xl font-semibold">ManageTasksPage</h1>;
}
