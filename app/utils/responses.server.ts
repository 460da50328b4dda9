import { data } from '@remix-run/cloudflare'
import type { FieldErrors, FormValues } from './validation.ts'

/**
 * A form the user got wrong: field errors (translation keys) and what they typed, with a 4xx
 * status so nothing downstream mistakes it for success. Nothing has been written.
 */
export function formError(errors: FieldErrors, values: FormValues = {}, status = 400) {
  return data({ errors, values, sent: false }, { status })
}
