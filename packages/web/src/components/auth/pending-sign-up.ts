/** The email waiting for its sign-up code, kept for the browser session so a reload keeps the code screen. */
export const pendingSignUp = {
  key: 'howl.pendingSignUpEmail',
  get: () => sessionStorage.getItem(pendingSignUp.key) ?? undefined,
  set: (email: string) => sessionStorage.setItem(pendingSignUp.key, email),
  clear: () => sessionStorage.removeItem(pendingSignUp.key),
};
