import * as z from 'zod/mini';

export { AUTHORIZATION_HEADER, MFA_REQUIRED_ERROR, MFA_TOKEN_HEADER } from './common.constants.ts';

/** Every 4xx/5xx answer of the API has this body; `error` is the message a user may be shown. */
export const errorBody = z.object({
  error: z.string(),
  /** Field-level problems, keyed by the dotted path of the offending input. */
  fields: z.optional(z.record(z.string(), z.string())),
});
export type ErrorBody = z.infer<typeof errorBody>;

export const successBody = z.object({ success: z.boolean() });
export const messageBody = z.object({ success: z.boolean(), message: z.string() });
