/** Placeholder until the page is written. */
export function Troubleshooting() {
  return <h1>Troubleshooting</h1>;
}
