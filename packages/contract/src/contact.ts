import { z } from 'zod';

const contactEmail = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(
    z
      .email({ message: 'Please enter a valid email address' })
      .max(254, { message: 'Please enter a valid email address' }),
  );

/** A visitor gives an email; a signed-in developer's own is used. */
export const contactBody = z.object({
  email: contactEmail.optional().meta({ description: 'Required for visitors; ignored for a signed-in developer.' }),
  message: z
    .string({ message: 'Please enter a message' })
    .trim()
    .min(1, { message: 'Please enter a message' })
    .max(5000, { message: 'Messages can be at most 5000 characters.' }),
});

export const newsletterBody = z.object({
  email: z
    .string({ message: 'Please enter a valid email address.' })
    .trim()
    .toLowerCase()
    .pipe(z.email({ message: 'Please enter a valid email address.' }).max(254)),
});
