// zod at every boundary. Schemas carry translation keys (not English text) as messages, so an
// action can answer field errors that the page renders in its own language.
import { z } from 'zod'

export type FieldMessage = { key: string; values?: Record<string, string | number> }
export type FieldErrors = Record<string, FieldMessage>

const PREFIX = 'i18n:'
/** Encode a translation key (and values) as a zod message. */
export function msg(key: string, values?: FieldMessage['values']) {
  return PREFIX + JSON.stringify({ key, values })
}

/** A zod message made by `msg()` back into its translation key (anything else: 'invalid'). */
export function decodeMessage(message: string): FieldMessage {
  if (message.startsWith(PREFIX)) {
    try {
      return JSON.parse(message.slice(PREFIX.length)) as FieldMessage
    } catch {
      /* fall through */
    }
  }
  return { key: 'validation.invalid' }
}

// Default messages for every schema: keys instead of zod's English.
const errorMap: z.ZodErrorMap = (issue, ctx) => {
  switch (issue.code) {
    case z.ZodIssueCode.invalid_type:
      return { message: issue.received === 'undefined' || issue.received === 'null' ? msg('validation.required') : msg('validation.invalid') }
    case z.ZodIssueCode.too_small:
      if (issue.type === 'string') return { message: issue.minimum === 1 ? msg('validation.required') : msg('validation.min_chars', { count: Number(issue.minimum) }) }
      return { message: msg('validation.min_number', { min: Number(issue.minimum) }) }
    case z.ZodIssueCode.too_big:
      if (issue.type === 'string') return { message: msg('validation.max_chars', { count: Number(issue.maximum) }) }
      return { message: msg('validation.max_number', { max: Number(issue.maximum) }) }
    case z.ZodIssueCode.invalid_string:
      return { message: issue.validation === 'email' ? msg('validation.email') : msg('validation.invalid') }
    case z.ZodIssueCode.invalid_enum_value:
      return { message: msg('validation.in') }
    default:
      return { message: ctx.defaultError.startsWith(PREFIX) ? ctx.defaultError : msg('validation.invalid') }
  }
}
z.setErrorMap(errorMap)

/** Required single-line text: trimmed, control characters rejected. */
export function text({ max, min = 1 }: { max: number; min?: number }) {
  return z
    .string()
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(1) // blank is "required", whatever the minimum
        .min(min)
        .max(max)
        .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), { message: msg('validation.invalid') }),
    )
}

export function email() {
  return z
    .string()
    .transform((s) => s.trim().toLowerCase())
    .pipe(z.string().min(1).max(254, { message: msg('validation.max_chars', { count: 254 }) }).email())
}

export const PASSWORD_MIN = 6
export function password() {
  // Not trimmed: spaces are valid password characters. 200 bounds scrypt input.
  return z.string().min(1).min(PASSWORD_MIN, { message: msg('validation.password_min', { count: PASSWORD_MIN }) }).max(200)
}

/** password + password_confirmation that must match (seed 001 §5 "confirmed"). */
export function withConfirmation<T extends z.ZodRawShape>(shape: T) {
  return z
    .object({ ...shape, password: password(), password_confirmation: z.string() })
    .refine((v) => v.password === v.password_confirmation, {
      path: ['password_confirmation'],
      message: msg('validation.confirmed'),
    })
}

/** FormData → plain object of strings (files and repeated keys are not accepted here). */
export function formToObject(formData: FormData) {
  const out: Record<string, string> = {}
  for (const [name, value] of formData) {
    if (typeof value === 'string' && !(name in out)) out[name] = value
  }
  return out
}

export type FormValues = Record<string, string>

/** The submitted form as strings, or null when the body is not a form (a crafted request). */
export async function readFormFields(request: Request): Promise<FormValues | null> {
  try {
    return formToObject(await request.formData())
  } catch {
    return null
  }
}
export type ParseResult<T> = { ok: true; data: T } | { ok: false; errors: FieldErrors; values: FormValues }

export function parseWith<S extends z.ZodTypeAny>(schema: S, input: unknown): ParseResult<z.output<S>> {
  const result = schema.safeParse(input)
  if (result.success) return { ok: true, data: result.data }
  const errors: FieldErrors = {}
  const values = echoValues(input)
  for (const issue of result.error.issues) {
    const field = issue.path.length ? String(issue.path[0]) : 'form'
    if (!errors[field]) errors[field] = decodeMessage(issue.message)
  }
  return { ok: false, errors, values }
}

/** What the user typed, to refill the form after an error; secrets are never echoed. */
function echoValues(input: unknown): FormValues {
  const out: FormValues = {}
  if (input && typeof input === 'object') {
    for (const [k, v] of Object.entries(input)) {
      if (typeof v === 'string' && !/password|token|secret/i.test(k)) out[k] = v.slice(0, 500)
    }
  }
  return out
}

export async function parseForm<S extends z.ZodTypeAny>(schema: S, request: Request): Promise<ParseResult<z.output<S>>> {
  let formData: FormData
  try {
    formData = await request.formData()
  } catch {
    return { ok: false, errors: { form: { key: 'validation.invalid' } }, values: {} }
  }
  return parseWith(schema, formToObject(formData))
}

// ---- redirect targets (issue 19 §1–2) ----------------------------------------------------------

/** Longest redirect target taken from input; longer ones fall back (the forms cap the field at 500 too). */
export const REDIRECT_MAX = 500

/** The origin a redirect target must stay on: a request's, a URL's, or an origin string. */
export type RedirectOrigin = Request | URL | string

// Raw value: printable ASCII only (no control character, space, DEL or anything non-ASCII, so no
// look-alike slash either), and no backslash, which browsers read as "/".
const RAW_ALLOWED = /^[\x21-\x7e]*$/
// After percent-decoding: no control or format character (\p{C}: C0, C1, bidi, zero-width), no
// separator or whitespace (\p{Z}, \s), no backslash, and no character that looks like a slash.
const DECODED_FORBIDDEN = /[\p{C}\p{Z}\s\\\u2044\u2215\u2571\u29f5\u29f8\u29f9\ufe68\uff0f\uff3c]/u

/** `%XX` escapes of ASCII bytes decoded (others left as they are): never throws. */
function decodeAsciiEscapes(value: string) {
  return value.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
}

/** One round of percent-decoding; with a malformed UTF-8 escape in it, the ASCII escapes only. */
function decodeOnce(value: string) {
  try {
    return decodeURIComponent(value)
  } catch {
    return decodeAsciiEscapes(value)
  }
}

/**
 * Whether a path (as typed, or as decoded once or twice by something on the way) could take a
 * browser off the site or break a header: a second leading slash, a backslash, a control
 * character or whitespace anywhere.
 */
function isHostilePath(value: string) {
  return value.startsWith('//') || DECODED_FORBIDDEN.test(value)
}

/** One leading "/", printable ASCII without a backslash, and nothing hostile once or twice decoded. */
function isSafePath(value: string) {
  if (!value.startsWith('/') || value.startsWith('//') || !RAW_ALLOWED.test(value) || value.includes('\\')) return false
  let decoded = value
  for (let pass = 0; pass < 2; pass++) {
    decoded = decodeOnce(decoded)
    if (isHostilePath(decoded)) return false
  }
  return true
}

/**
 * Where to send the browser after a sign-in, a language switch, a form: a path on the request's
 * own origin, or `fallback`. The value is refused (→ fallback) when it is not a string, is empty or
 * longer than REDIRECT_MAX, does not start with exactly one "/", holds anything but printable ASCII
 * or a backslash, or — percent-decoded once or twice — starts with "//" or holds a control
 * character, whitespace, a backslash or a look-alike slash. What passes is parsed with
 * `new URL(value, origin)`, must keep that origin, and is answered as the parsed URL's own path,
 * query and fragment, so a Location header built from it is always valid and always on the site.
 * `fallback` is the caller's own constant and is returned as it is.
 */
export function safeRedirect(to: unknown, fallback: string, origin: RedirectOrigin): string {
  return redirectTarget(to, origin) ?? fallback
}

/** safeRedirect's check alone: the same-origin path to go to, or null when `to` is refused. */
export function redirectTarget(to: unknown, origin: RedirectOrigin): string | null {
  if (typeof to !== 'string' || to.length === 0 || to.length > REDIRECT_MAX) return null
  if (!isSafePath(to)) return null
  let base: URL
  try {
    base = new URL(typeof origin === 'string' ? origin : origin instanceof URL ? origin.href : origin.url)
  } catch {
    return null
  }
  let url: URL
  try {
    url = new URL(to, base.origin)
  } catch {
    return null
  }
  if (url.origin !== base.origin || url.username || url.password) return null
  const target = `${url.pathname}${url.search}${url.hash}`
  // The serialised URL again: dot segments may have collapsed into "//" ("/.//x", "/./%2f/x").
  return isSafePath(target) ? target : null
}
