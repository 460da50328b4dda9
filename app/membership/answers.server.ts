// Answers of the /my/membership/* calls (issue 8 item 6): script calls (fetch with
// X-Requested-With or Accept JSON) get JSON — errors as `{errors: {field: [message]}}` in the
// user's language (seed 000 §7/§8) — and plain forms (no JavaScript) get a 303 back to /panel
// with what to show in the query string (the panel's membership card reads it).
import { redirect } from '@remix-run/cloudflare'
import { noStoreJson } from '#app/utils/responses.server.ts'

export type FieldMessages = Record<string, string[]>

export const jsonErrors = (errors: FieldMessages, status: number) => noStoreJson({ errors }, status)

/** /panel with query parameters, anchored at the membership's card. */
export function backToPanel(params: Record<string, string | null | undefined>, membershipId?: string | null) {
  const q = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) if (v) q.set(k, v)
  const query = q.toString()
  return redirect(`/panel${query ? `?${query}` : ''}${membershipId ? `#membership-${membershipId}` : ''}`, 303)
}
