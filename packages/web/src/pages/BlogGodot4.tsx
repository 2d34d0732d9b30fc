/** Placeholder until the page is written. */
export function BlogGodot4() {
  return <h1>Howl and Godot 4</h1>;
}
