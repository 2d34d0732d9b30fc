/** Placeholder until the page is written. */
export function Download() {
  return <h1>Download</h1>;
}
