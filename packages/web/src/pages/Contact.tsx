/** Placeholder until the page is written. */
export function Contact() {
  return <h1>Contact us</h1>;
}
