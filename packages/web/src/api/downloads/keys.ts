/**
 * Query keys of the plugin downloads the build packed (one list, the same for every visitor).
 *
 * @example client.invalidateQueries({ queryKey: downloadKeys.all })
 */
export const downloadKeys = {
  all: ['downloads'] as const,
};
