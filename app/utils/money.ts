// Money as typed by people ("49,99", "49.99", "1 299", "49") ⇄ integer minor units (seed 001 §3:
// "price in cents"). Every currency the platform sells in (PLN, USD, EUR) has 2 decimals.
import { z } from 'zod'
import { msg } from './validation.ts'

/** 1 000 000.00 in major units: anything above is a typo, not a price. */
export const MONEY_MAX = 100_000_000

export type MoneyError = 'format' | 'negative' | 'decimals' | 'too_big'
export type MoneyResult = { ok: true; value: number } | { ok: false; error: MoneyError }

/**
 * Parses a friendly amount into minor units. Accepts a comma or a dot as the decimal separator
 * and spaces (also non-breaking) as thousands separators; refuses letters, signs and >2 decimals.
 */
export function parseMoney(input: string): MoneyResult {
  const s = input.replace(/[\s\u00a0\u202f]/g, '')
  if (/^-/.test(s)) return { ok: false, error: 'negative' }
  const m = /^(\d{1,12})(?:[.,](\d*))?$/.exec(s)
  if (!m) return { ok: false, error: 'format' }
  const fraction = m[2] ?? ''
  if (fraction.length > 2) return { ok: false, error: 'decimals' }
  const value = Number(m[1]) * 100 + Number(fraction.padEnd(2, '0'))
  if (!Number.isSafeInteger(value) || value > MONEY_MAX) return { ok: false, error: 'too_big' }
  return { ok: true, value }
}

/** The amount as the input shows it again ("49,99" in Polish, "49.99" in English). */
export { formatMoney, formatMoneyInput } from './money-format.ts'

const MONEY_MESSAGES: Record<MoneyError, string> = {
  format: msg('products.error.money_format'),
  negative: msg('products.error.money_negative'),
  decimals: msg('products.error.money_decimals'),
  too_big: msg('products.error.money_too_big'),
}

/** zod: a required money input → minor units, errors as translation keys. */
export function money() {
  return z
    .string({ required_error: msg('validation.required') })
    .transform((s) => s.trim())
    .pipe(z.string().min(1))
    .transform((s, ctx) => {
      const parsed = parseMoney(s)
      if (parsed.ok) return parsed.value
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: MONEY_MESSAGES[parsed.error] })
      return z.NEVER
    })
}

/** zod: an optional money input ('' → null). */
export function optionalMoney() {
  return z
    .string()
    .optional()
    .transform((s, ctx) => {
      const v = (s ?? '').trim()
      if (!v) return null
      const parsed = parseMoney(v)
      if (parsed.ok) return parsed.value
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: MONEY_MESSAGES[parsed.error] })
      return z.NEVER
    })
}
