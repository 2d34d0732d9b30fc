/** Placeholder until the page is written. */
export function Terms() {
  return <h1>Terms of service</h1>;
}
