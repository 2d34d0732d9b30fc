/** Placeholder until the page is written. */
export function Home() {
  return <h1>Howl</h1>;
}
