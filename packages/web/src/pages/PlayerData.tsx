/** Placeholder until the page is written. */
export function PlayerData() {
  return <h1>Player data</h1>;
}
