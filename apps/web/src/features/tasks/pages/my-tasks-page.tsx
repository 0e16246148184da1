/** Being built (issue 3). */
export function MyTasksPage() {
  return <h1 className="text-xl font-semibold">MyTasksPage</h1>;
}
