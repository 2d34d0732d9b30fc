/**
 * Typed client of the Howl game API (`/v1`). The game API arrives with the games
 * issue; until then this package only re-exports the shared error envelope.
 */
export type { ErrorResponse, ErrorCode } from '@howl/contract';
