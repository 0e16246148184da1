/** Placeholder until the web app issue lands: the API is complete and documented in the README. */
export function App() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: '2rem' }}>
      <h1>Task Manager</h1>
      <p>The API is running. The web app is being built.</p>
    </main>
  );
}
