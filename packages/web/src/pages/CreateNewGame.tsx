/** Placeholder until the page is written. */
export function CreateNewGame() {
  return <h1>New game</h1>;
}
