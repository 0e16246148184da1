/** Being built (issue 3). */
export function TaskDetailsPage() {
  return <h1 className="text-xl font-semibold">TaskDetailsPage</h1>;
}
