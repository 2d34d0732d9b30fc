import { AppError } from '../../http/errors.js';

/** The contact form's and newsletter's own failures, each with one status and stable code. */
export const contactErrors = {
  mailFailed: (cause: unknown) =>
    new AppError(503, 'ServiceUnavailable', 'We could not send your message right now. Please try again in a moment.', {
      cause,
    }),
};
