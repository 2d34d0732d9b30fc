/** Placeholder until the page is written. */
export function MobileExport() {
  return <h1>Mobile export</h1>;
}
