/** Placeholder until the page is written. */
export function EmailConfirmed() {
  return <h1>Thank you</h1>;
}
