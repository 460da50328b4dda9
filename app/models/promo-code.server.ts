// Promo codes (seed 001 §3 "Promo codes", §8; issue 8 item 2). A code is a percent (1–100) or a
// fixed amount (minor units) off, for every product of the school or for one of them, optionally
// between two dates and up to a number of uses. Codes are stored upper-case and trimmed, so a
// student typing "spring" matches "SPRING". Usage is counted by settleTransaction (redemption row +
// usedCount + 1 when a sale completes); this module only reads those figures. Every function takes
// the tenant explicitly.
import { asc, eq, sql } from 'drizzle-orm'
import { z } from 'zod'
import type { ShardDb } from '#app/db/client.server.ts'
import { products, promoCodes, promoRedemptions, PROMO_KINDS, type PromoCode } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { parseMoney, MONEY_MAX } from '#app/utils/money.ts'
import { msg } from '#app/utils/validation.ts'
import { ofTenant } from './tenant-scope.server.ts'

export type { PromoCode }
export type PromoKind = (typeof PROMO_KINDS)[number]

export const PROMO_CODE_MIN = 3
export const PROMO_CODE_MAX = 40
export const PROMO_CODE_PATTERN = /^[A-Z0-9_-]+$/
/** A usage limit above this is a typo (and keeps the column far from overflow). */
export const PROMO_USAGE_LIMIT_MAX = 1_000_000

/** The canonical form a code is stored and looked up in. */
export function normalizeCode(code: string) {
  return code.trim().toUpperCase()
}

export type PromoCheck =
  | { ok: true; promo: { id: string; code: string; kind: PromoKind; value: number } }
  | { ok: false; error: 'invalid' | 'expired' | 'used' }

/**
 * Can this buyer use the code on this product now? Unknown, another school's, another product's or
 * not yet started → 'invalid'; past its end or out of uses → 'expired'; already redeemed by this
 * signed-in user → 'used' (a visitor, userId null, is checked again when the sale completes).
 */
export async function checkPromoCode(db: ShardDb, tenantId: string, input: { code: string; productId: string; userId: string | null; now?: number }): Promise<PromoCheck> {
  const code = normalizeCode(input.code)
  if (code.length < PROMO_CODE_MIN || code.length > PROMO_CODE_MAX || !PROMO_CODE_PATTERN.test(code)) return { ok: false, error: 'invalid' }
  const now = input.now ?? Date.now()
  const [row] = await db
    .select()
    .from(promoCodes)
    .where(ofTenant(promoCodes, tenantId, eq(promoCodes.code, code)))
    .limit(1)
  if (!row) return { ok: false, error: 'invalid' }
  if (row.productId !== null && row.productId !== input.productId) return { ok: false, error: 'invalid' }
  if (row.startsAt !== null && now < row.startsAt) return { ok: false, error: 'invalid' }
  if (row.endsAt !== null && now > row.endsAt) return { ok: false, error: 'expired' }
  if (row.usageLimit !== -1 && row.usedCount >= row.usageLimit) return { ok: false, error: 'expired' }
  if (input.userId) {
    const [used] = await db
      .select({ id: promoRedemptions.id })
      .from(promoRedemptions)
      .where(ofTenant(promoRedemptions, tenantId, eq(promoRedemptions.promoCodeId, row.id), eq(promoRedemptions.userId, input.userId)))
      .limit(1)
    if (used) return { ok: false, error: 'used' }
  }
  return { ok: true, promo: { id: row.id, code: row.code, kind: row.kind, value: row.value } }
}

export type PromoStatus = 'active' | 'scheduled' | 'expired' | 'used_up'

/** What the owner's list shows for a code. */
export function promoStatus(row: Pick<PromoCode, 'startsAt' | 'endsAt' | 'usageLimit' | 'usedCount'>, now = Date.now()): PromoStatus {
  if (row.usageLimit !== -1 && row.usedCount >= row.usageLimit) return 'used_up'
  if (row.endsAt !== null && now > row.endsAt) return 'expired'
  if (row.startsAt !== null && now < row.startsAt) return 'scheduled'
  return 'active'
}

export type PromoCodeRow = PromoCode & { productTitle: string | null }

export async function listPromoCodes(db: ShardDb, tenantId: string, limit = 500): Promise<PromoCodeRow[]> {
  return db
    .select({
      id: promoCodes.id,
      tenantId: promoCodes.tenantId,
      code: promoCodes.code,
      kind: promoCodes.kind,
      value: promoCodes.value,
      productId: promoCodes.productId,
      startsAt: promoCodes.startsAt,
      endsAt: promoCodes.endsAt,
      usageLimit: promoCodes.usageLimit,
      usedCount: promoCodes.usedCount,
      createdAt: promoCodes.createdAt,
      updatedAt: promoCodes.updatedAt,
      productTitle: products.title,
    })
    .from(promoCodes)
    .leftJoin(products, ofTenant(products, promoCodes.tenantId, eq(products.id, promoCodes.productId)))
    .where(ofTenant(promoCodes, tenantId))
    .orderBy(asc(promoCodes.code))
    .limit(limit)
}

export async function getPromoCode(db: ShardDb, tenantId: string, id: string): Promise<PromoCode | undefined> {
  const [row] = await db
    .select()
    .from(promoCodes)
    .where(ofTenant(promoCodes, tenantId, eq(promoCodes.id, id)))
    .limit(1)
  return row
}

export type PromoCodeInput = {
  code: string
  kind: PromoKind
  value: number
  productId: string | null
  startsAt: number | null
  endsAt: number | null
  usageLimit: number
}

export type PromoSaveResult = { ok: true; promo: PromoCode } | { ok: false; error: 'taken' | 'invalid_product' | 'not_found' }

/** The product must be one of this school's (a foreign id is refused, not silently dropped). */
async function ownsProduct(db: ShardDb, tenantId: string, productId: string | null) {
  if (productId === null) return true
  const [row] = await db
    .select({ id: products.id })
    .from(products)
    .where(ofTenant(products, tenantId, eq(products.id, productId)))
    .limit(1)
  return Boolean(row)
}

function isUniqueViolation(error: unknown) {
  // D1 reports the constraint in the cause of drizzle's error.
  const cause = (error as { cause?: unknown })?.cause
  return `${String((error as Error)?.message ?? error)} ${String((cause as Error)?.message ?? cause ?? '')}`.includes('UNIQUE')
}

/** A new code; 'taken' when the school already has it (the unique index decides races). */
export async function createPromoCode(db: ShardDb, tenantId: string, input: PromoCodeInput, now = Date.now()): Promise<PromoSaveResult> {
  if (!(await ownsProduct(db, tenantId, input.productId))) return { ok: false, error: 'invalid_product' }
  const [row] = await db
    .insert(promoCodes)
    .values({ id: newId(), tenantId, ...input, code: normalizeCode(input.code), usedCount: 0, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning()
  return row ? { ok: true, promo: row } : { ok: false, error: 'taken' }
}

/** Edits a code; the used count is kept (it records sales that already happened). */
export async function updatePromoCode(db: ShardDb, tenantId: string, id: string, input: PromoCodeInput, now = Date.now()): Promise<PromoSaveResult> {
  if (!(await ownsProduct(db, tenantId, input.productId))) return { ok: false, error: 'invalid_product' }
  try {
    const [row] = await db
      .update(promoCodes)
      .set({ ...input, code: normalizeCode(input.code), updatedAt: now })
      .where(ofTenant(promoCodes, tenantId, eq(promoCodes.id, id)))
      .returning()
    return row ? { ok: true, promo: row } : { ok: false, error: 'not_found' }
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, error: 'taken' }
    throw error
  }
}

/** Deletes a code (its redemption rows go with it; completed transactions keep their amounts). */
export async function deletePromoCode(db: ShardDb, tenantId: string, id: string) {
  const deleted = await db
    .delete(promoCodes)
    .where(ofTenant(promoCodes, tenantId, eq(promoCodes.id, id)))
    .returning({ id: promoCodes.id })
  return deleted.length > 0
}

/** How many codes the school has (for the list heading). */
export async function countPromoCodes(db: ShardDb, tenantId: string) {
  const [row] = await db.select({ n: sql<number>`count(*)` }).from(promoCodes).where(ofTenant(promoCodes, tenantId))
  return Number(row?.n ?? 0)
}

// ---- The owner's form ----------------------------------------------------------------------

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * A date input (YYYY-MM-DD, a UTC day like the product promotion dates) → epoch ms ('' → null).
 * An end date means the end of that day, so a code "until 2026-05-31" still works on the 31st.
 */
function dateField(edge: 'start' | 'end') {
  return z
    .string()
    .optional()
    .transform((s, ctx) => {
      const v = (s ?? '').trim()
      if (!v) return null
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v)
      const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN
      if (!m || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== v || Number(m[1]) < 2000 || Number(m[1]) > 2200) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: msg('promo.error.date') })
        return z.NEVER
      }
      return edge === 'end' ? ms + DAY_MS - 1 : ms
    })
}

/** A stored date back into the date input. */
export function isoDay(ms: number | null) {
  return ms === null ? '' : new Date(ms).toISOString().slice(0, 10)
}

/** The create/edit form (strings from FormData). */
export const PromoCodeFormSchema = z
  .object({
    code: z
      .string()
      .transform(normalizeCode)
      .pipe(
        z
          .string()
          .min(1)
          .min(PROMO_CODE_MIN)
          .max(PROMO_CODE_MAX)
          .regex(PROMO_CODE_PATTERN, { message: msg('promo.error.code_format') }),
      ),
    kind: z.enum(PROMO_KINDS),
    value: z.string().trim().min(1),
    productId: z
      .string()
      .optional()
      .transform((s) => (s ?? '').trim() || null),
    startsAt: dateField('start'),
    endsAt: dateField('end'),
    usageLimit: z
      .string()
      .optional()
      .transform((s, ctx) => {
        const v = (s ?? '').trim()
        if (!v || v === '-1') return -1
        if (!/^\d{1,9}$/.test(v) || Number(v) < 1 || Number(v) > PROMO_USAGE_LIMIT_MAX) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, message: msg('promo.error.usage_limit') })
          return z.NEVER
        }
        return Number(v)
      }),
  })
  .transform((v, ctx): PromoCodeInput => {
    let value = 0
    if (v.kind === 'percent') {
      const n = /^\d{1,3}$/.test(v.value) ? Number(v.value) : NaN
      if (!(n >= 1 && n <= 100)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['value'], message: msg('promo.error.percent') })
      else value = n
    } else {
      const parsed = parseMoney(v.value)
      if (!parsed.ok) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['value'], message: msg(`products.error.money_${parsed.error}`) })
      else if (parsed.value < 1 || parsed.value > MONEY_MAX) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['value'], message: msg('promo.error.amount') })
      else value = parsed.value
    }
    if (v.startsAt !== null && v.endsAt !== null && v.endsAt < v.startsAt) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['endsAt'], message: msg('promo.error.end_before_start') })
    }
    return { code: v.code, kind: v.kind, value, productId: v.productId, startsAt: v.startsAt, endsAt: v.endsAt, usageLimit: v.usageLimit }
  })
