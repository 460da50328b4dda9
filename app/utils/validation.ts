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

/** Same-site relative path for post-login redirects; anything else falls back. */
export function safeRedirect(to: unknown, fallback = '/') {
  if (typeof to !== 'string' || !to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) return fallback
  return to
}
