/** Placeholder until the page is written. */
export function Features() {
  return <h1>Features</h1>;
}

export function LeaderboardPage() {
  return <h1>Leaderboards</h1>;
}
