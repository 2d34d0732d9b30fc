/** Placeholder until the page is written. */
export function Privacy() {
  return <h1>Privacy policy</h1>;
}
