/** Placeholder until the page is written. */
export function ChangePassword() {
  return <h1>Change password</h1>;
}
