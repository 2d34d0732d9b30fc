/** Placeholder until the page is written. */
export function CallingHowl() {
  return <h1>Calling Howl</h1>;
}
