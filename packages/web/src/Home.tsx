/** Placeholder home until the site's pages arrive: says what Howl is and where the API lives. */
export function Home() {
  return (
    <main
      style={{
        fontFamily: 'system-ui, sans-serif',
        maxWidth: 640,
        margin: '4rem auto',
        padding: '0 1rem',
        lineHeight: 1.5,
      }}
    >
      <h1>Howl</h1>
      <p>Leaderboards, player accounts and player data for Godot games, without running a server of your own.</p>
      <p>
        The API is up: browse its reference at <a href="/api/docs">/api/docs</a> or read the OpenAPI document at{' '}
        <a href="/api/openapi.json">/api/openapi.json</a>.
      </p>
    </main>
  );
}
