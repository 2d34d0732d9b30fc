/** Placeholder until the page is written. */
export function CSharp() {
  return <h1>C#</h1>;
}
