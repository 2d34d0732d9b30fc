/**
 * Query key of the signed-in developer's session (with their games and current game). Signing in
 * or out keeps this one and drops every other resource's data.
 *
 * @example client.setQueryData(sessionKeys.all, session)
 */
export const sessionKeys = {
  all: ['session'] as const,
};
