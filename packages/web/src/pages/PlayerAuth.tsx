/** Placeholder until the page is written. */
export function PlayerAuth() {
  return <h1>Player accounts</h1>;
}
