/** A value kept for the browser session (this tab), so a reload finds the step it was on. */
function sessionItem(key: string) {
  return {
    key,
    get: () => sessionStorage.getItem(key) ?? undefined,
    set: (value: string) => sessionStorage.setItem(key, value),
    clear: () => sessionStorage.removeItem(key),
  };
}

/** The email waiting for its sign-up code: a reload keeps the code screen. */
export const pendingSignUp = sessionItem('howl.pendingSignUpEmail');

/** The email a password-reset code was sent to: a reload of /forgotPassword keeps step 2. */
export const pendingReset = sessionItem('howl.pendingResetEmail');
