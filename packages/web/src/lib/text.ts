/** Cuts text to `max` characters followed by an ellipsis, as the spec's lists do (names 12, players 22…). */
export function truncate(text: string, max: number): string {
  return [...text].length > max ? `${[...text].slice(0, max).join('')}...` : text;
}
