/** Placeholder until the page is written. */
export function EmailSent() {
  return <h1>Email sent</h1>;
}
