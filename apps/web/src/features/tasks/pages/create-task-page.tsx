/** Being built (issue 3). */
export function CreateTaskPage() {
  return <h1 className="text-xl font-semibold">CreateTaskPage</h1>;
}
