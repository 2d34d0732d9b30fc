/** Placeholder until the page is written. */
export function ForgotPassword() {
  return <h1>Forgot password</h1>;
}
