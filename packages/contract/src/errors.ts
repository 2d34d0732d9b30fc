import { z } from 'zod';

/** Every stable error code the API answers with. The web maps these to the spec's messages. */
export type ErrorCode =
  | 'InvalidParameter'
  | 'InvalidPassword'
  | 'UsernameExists'
  | 'UserNotFound'
  | 'UserNotConfirmed'
  | 'UserDisabled'
  | 'PasswordResetRequired'
  | 'SessionExpired'
  | 'PlayerAuthDisabled'
  | 'PlayerNameTaken'
  | 'PlayerNotFound'
  | 'PlayerDisabled'
  | 'PlayerSessionRequired'
  | 'InvalidEmail'
  | 'PasswordMismatch'
  | 'PlayerDataTooLarge'
  | 'VersionConflict'
  | 'CharacterLimitReached'
  | 'NotAuthorized'
  | 'CodeMismatch'
  | 'ExpiredCode'
  | 'LimitExceeded'
  | 'NotFound'
  | 'InvalidApiKey'
  | 'GameLimitReached'
  | 'LeaderboardNotFound'
  | 'LeaderboardExists'
  | 'LeaderboardLimitReached'
  | 'LeaderboardChanged'
  | 'ScoreNotFound'
  | 'MetadataTooLarge'
  | 'ClientWritesDisabled'
  | 'PayloadTooLarge'
  | 'UnsupportedMediaType'
  | 'MethodNotAllowed'
  | 'HeadersTooLarge'
  | 'RequestTimeout'
  | 'ServiceUnavailable'
  | 'InternalError';

/** The one error envelope: `{ error: { code, message, field? } }`; `field` only on validation errors, `current_version` only on VersionConflict. */
export const errorResponse = z
  .object({
    error: z.object({
      code: z.string().meta({ description: 'Stable, machine-readable error code.' }),
      message: z.string().meta({ description: 'A sentence a person understands.' }),
      field: z.string().optional().meta({ description: 'Path of the first invalid field, on validation errors only.' }),
      current_version: z.number().optional().meta({ description: 'On VersionConflict only: the version stored now.' }),
    }),
  })
  .meta({ id: 'Error' });

export type ErrorResponse = z.infer<typeof errorResponse>;
