/** Placeholder until the page is written. */
export function Auth() {
  return <h1>Sign in</h1>;
}
