// The one-time message a mutation leaves for the page it redirects to (issue 20: instead of `?done=`
// maps). Browser-safe: the shape the root loader hands to the page, and its validation.
import { z } from 'zod'

export const FlashSchema = z.object({
  /** What happened, for pages that react to it (reset a form, pick a message): `created`, `saved`… */
  done: z.string().regex(/^[a-z0-9_]{1,40}$/),
  /** Translation key of the message. */
  message: z.string().regex(/^[a-z0-9_.]{1,100}$/),
  values: z.record(z.union([z.string().max(300), z.number()])).optional(),
  tone: z.enum(['success', 'info']).optional(),
})

export type Flash = z.infer<typeof FlashSchema>
