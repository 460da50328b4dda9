import { data } from '@remix-run/cloudflare'
import type { FieldErrors, FormValues } from './validation.ts'

/**
 * A form the user got wrong: field errors (translation keys) and what they typed, with a 4xx
 * status so nothing downstream mistakes it for success. Nothing has been written.
 */
export function formError(errors: FieldErrors, values: FormValues = {}, status = 400) {
  return data({ errors, values, sent: false }, { status })
}

/** A JSON answer to a script call; never stored by browsers or caches. */
export function noStoreJson(body: unknown, status = 200) {
  return Response.json(body, { status, headers: { 'Cache-Control': 'no-store' } })
}
