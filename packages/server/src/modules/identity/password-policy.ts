/** Server-side policy: at least 8 characters with upper case, lower case, a number and a symbol. */
export function meetsPasswordPolicy(password: string): boolean {
  return (
    [...password].length >= 8 &&
    /\p{Lu}/u.test(password) &&
    /\p{Ll}/u.test(password) &&
    /\p{Nd}/u.test(password) &&
    /[^\p{L}\p{Nd}]/u.test(password)
  );
}
