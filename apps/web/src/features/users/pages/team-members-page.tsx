/** Being built (issue 3). */
export function TeamMembersPage() {
  return <h1 className="text-xl font-semibold">TeamMembersPage</h1>;
}
