// Affiliate (recommendation) partners, their commissions and payouts (issue 24 item 5). A partner
// has a code (stored upper-case, unique per school); a visit with `?ref=CODE` sets the
// `recommendation` cookie (app/affiliates/referral-visit.server.ts), the checkout records the
// partner on the transaction, and settleTransaction inserts the commission once, in the batch that
// grants access (commissionStatement below). A refund reverses an unpaid commission in the refund's
// batch; one already paid stays and shows as "to claw back" until the next payout nets it off.
import { and, desc, eq, isNull, sql } from 'drizzle-orm'
import { z } from 'zod'
import type { ShardDb } from '#app/db/client.server.ts'
import { affiliateCommissions, affiliatePartners, affiliatePayouts, COMMISSION_KINDS, products, transactions, type AffiliatePartner } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { MONEY_MAX, parseMoney } from '#app/utils/money.ts'
import { email, msg, text } from '#app/utils/validation.ts'
import { ofTenant } from './tenant-scope.server.ts'

export type { AffiliatePartner }
export type CommissionKind = (typeof COMMISSION_KINDS)[number]

export const PARTNER_CODE_MIN = 3
export const PARTNER_CODE_MAX = 40
export const PARTNER_CODE_PATTERN = /^[A-Z0-9_-]+$/
export const COOKIE_DAYS_MAX = 365

export function normalizePartnerCode(code: string) {
  return code.trim().toUpperCase()
}

/** A free code made from the name: the name's letters, then 2, 3, … until one is not taken. */
export async function freePartnerCode(db: ShardDb, tenantId: string, name: string) {
  let base = suggestPartnerCode(name)
  if (base.length < PARTNER_CODE_MIN) base = `${base}PARTNER`.slice(0, 20)
  for (let n = 1; n < 50; n++) {
    const candidate = n === 1 ? base : `${base}${n}`
    if (!(await isPartnerCodeTaken(db, tenantId, candidate))) return candidate
  }
  return `${base}${newId(4).toUpperCase()}`
}

/** A code suggested from the partner's name: "Anna Kowalska" → "ANNAKOWALSKA" (ASCII letters and digits only). */
export function suggestPartnerCode(name: string) {
  const ascii = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ł/g, 'l')
    .replace(/Ł/g, 'L')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
  return ascii.slice(0, 20)
}

// ---- The owner's form ----------------------------------------------------------------------

export const PartnerFormSchema = z
  .object({
    name: text({ max: 120 }),
    email: email(),
    // Empty: the owner asks for one made from the name (createPartner / the route decides).
    code: z
      .string()
      .optional()
      .transform((s, ctx) => {
        const v = normalizePartnerCode(s ?? '')
        if (v && (v.length < PARTNER_CODE_MIN || v.length > PARTNER_CODE_MAX || !PARTNER_CODE_PATTERN.test(v))) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, message: msg('affiliates.error.code_format') })
          return z.NEVER
        }
        return v
      }),
    commissionKind: z.enum(COMMISSION_KINDS),
    commissionValue: z.string().trim().min(1),
    cookieDays: z
      .string()
      .trim()
      .min(1)
      .transform((s, ctx) => {
        const n = /^\d{1,4}$/.test(s) ? Number(s) : NaN
        if (!(n >= 1 && n <= COOKIE_DAYS_MAX)) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, message: msg('affiliates.error.cookie_days') })
          return z.NEVER
        }
        return n
      }),
  })
  .transform((input, ctx) => {
    // Percent: a whole number 1–100; fixed: money as typed ("20", "19,99") → minor units.
    let value: number
    if (input.commissionKind === 'percent') {
      value = /^\d{1,3}$/.test(input.commissionValue) ? Number(input.commissionValue) : NaN
      if (!(value >= 1 && value <= 100)) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['commissionValue'], message: msg('affiliates.error.percent') })
        return z.NEVER
      }
    } else {
      const parsed = parseMoney(input.commissionValue)
      if (!parsed.ok || parsed.value < 1 || parsed.value > MONEY_MAX) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['commissionValue'], message: msg('affiliates.error.fixed') })
        return z.NEVER
      }
      value = parsed.value
    }
    return { name: input.name, email: input.email, code: input.code, commissionKind: input.commissionKind, commissionValue: value, cookieDays: input.cookieDays }
  })

export type PartnerInput = z.output<typeof PartnerFormSchema>
export type PartnerSaveResult = { ok: true; partner: AffiliatePartner } | { ok: false; error: 'taken' | 'not_found' }

function isUniqueViolation(error: unknown) {
  const cause = (error as { cause?: unknown })?.cause
  return `${String((error as Error)?.message ?? error)} ${String((cause as Error)?.message ?? cause ?? '')}`.includes('UNIQUE')
}

// ---- Partners ------------------------------------------------------------------------------

export async function createPartner(db: ShardDb, tenantId: string, input: PartnerInput, now = Date.now()): Promise<PartnerSaveResult> {
  const [row] = await db
    .insert(affiliatePartners)
    .values({
      id: newId(),
      tenantId,
      name: input.name,
      email: input.email,
      code: normalizePartnerCode(input.code),
      commissionKind: input.commissionKind,
      commissionValue: input.commissionValue,
      cookieDays: input.cookieDays,
      active: true,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning()
  return row ? { ok: true, partner: row } : { ok: false, error: 'taken' }
}

export async function updatePartner(db: ShardDb, tenantId: string, id: string, input: PartnerInput, now = Date.now()): Promise<PartnerSaveResult> {
  try {
    const [row] = await db
      .update(affiliatePartners)
      .set({ ...input, code: normalizePartnerCode(input.code), updatedAt: now })
      .where(ofTenant(affiliatePartners, tenantId, eq(affiliatePartners.id, id)))
      .returning()
    return row ? { ok: true, partner: row } : { ok: false, error: 'not_found' }
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, error: 'taken' }
    throw error
  }
}

export async function setPartnerActive(db: ShardDb, tenantId: string, id: string, active: boolean, now = Date.now()) {
  const rows = await db
    .update(affiliatePartners)
    .set({ active, updatedAt: now })
    .where(ofTenant(affiliatePartners, tenantId, eq(affiliatePartners.id, id)))
    .returning({ id: affiliatePartners.id })
  return rows.length > 0
}

/** Deletes a partner with its commissions and payouts (cascade); its sales keep their amounts. */
export async function deletePartner(db: ShardDb, tenantId: string, id: string) {
  const [, deleted] = await db.batch([
    db
      .update(transactions)
      .set({ affiliatePartnerId: null })
      .where(ofTenant(transactions, tenantId, eq(transactions.affiliatePartnerId, id))),
    db
      .delete(affiliatePartners)
      .where(ofTenant(affiliatePartners, tenantId, eq(affiliatePartners.id, id)))
      .returning({ id: affiliatePartners.id }),
  ])
  return deleted.length > 0
}

export async function getPartner(db: ShardDb, tenantId: string, id: string): Promise<AffiliatePartner | undefined> {
  if (!/^[a-z0-9]{1,64}$/.test(id)) return undefined
  const [row] = await db
    .select()
    .from(affiliatePartners)
    .where(ofTenant(affiliatePartners, tenantId, eq(affiliatePartners.id, id)))
    .limit(1)
  return row
}

/** The active partner with this code in this school (the `?ref=` visit). */
export async function getActivePartnerByCode(db: ShardDb, tenantId: string, code: string) {
  const normalized = normalizePartnerCode(code)
  if (normalized.length > PARTNER_CODE_MAX || !PARTNER_CODE_PATTERN.test(normalized)) return undefined
  const [row] = await db
    .select({ id: affiliatePartners.id, cookieDays: affiliatePartners.cookieDays })
    .from(affiliatePartners)
    .where(ofTenant(affiliatePartners, tenantId, eq(affiliatePartners.code, normalized), eq(affiliatePartners.active, true)))
    .limit(1)
  return row
}

/** Is this an active partner of this school (the checkout, reading the cookie)? */
export async function isActivePartner(db: ShardDb, tenantId: string, id: string) {
  if (!/^[a-z0-9]{1,64}$/.test(id)) return false
  const [row] = await db
    .select({ id: affiliatePartners.id })
    .from(affiliatePartners)
    .where(ofTenant(affiliatePartners, tenantId, eq(affiliatePartners.id, id), eq(affiliatePartners.active, true)))
    .limit(1)
  return Boolean(row)
}

export async function isPartnerCodeTaken(db: ShardDb, tenantId: string, code: string) {
  const [row] = await db
    .select({ id: affiliatePartners.id })
    .from(affiliatePartners)
    .where(ofTenant(affiliatePartners, tenantId, eq(affiliatePartners.code, normalizePartnerCode(code))))
    .limit(1)
  return Boolean(row)
}

// ---- Figures -------------------------------------------------------------------------------

export type CurrencyFigures = { currency: string; sales: number; accrued: number; reversed: number; paid: number; owed: number }

/**
 * A commission already paid whose sale was refunded afterwards: still 'accrued' with a payout, the
 * transaction refunded. It is owed back until the next payout nets it off (then 'reversed').
 */
const clawback = sql`(${affiliateCommissions.status} = 'accrued' and ${affiliateCommissions.payoutId} is not null and exists (select 1 from ${transactions} where ${transactions.tenantId} = ${affiliateCommissions.tenantId} and ${transactions.id} = ${affiliateCommissions.transactionId} and ${transactions.status} = 'refunded'))`
const owedNow = sql`(${affiliateCommissions.status} = 'accrued' and ${affiliateCommissions.payoutId} is null)`

/** Per partner (or one) and currency: sales, commission accrued / reversed / paid / owed (owed < 0: to claw back). */
export async function partnerFigures(db: ShardDb, tenantId: string, partnerId?: string): Promise<Array<CurrencyFigures & { partnerId: string }>> {
  const [commissions, payouts] = await Promise.all([
    db
      .select({
        partnerId: affiliateCommissions.partnerId,
        currency: affiliateCommissions.currency,
        sales: sql<number>`count(*)`,
        accrued: sql<number>`coalesce(sum(case when ${affiliateCommissions.status} = 'accrued' then ${affiliateCommissions.amount} else 0 end), 0)`,
        reversed: sql<number>`coalesce(sum(case when ${affiliateCommissions.status} = 'reversed' then ${affiliateCommissions.amount} else 0 end), 0)`,
        owed: sql<number>`coalesce(sum(case when ${owedNow} then ${affiliateCommissions.amount} when ${clawback} then -${affiliateCommissions.amount} else 0 end), 0)`,
      })
      .from(affiliateCommissions)
      .where(ofTenant(affiliateCommissions, tenantId, partnerId ? eq(affiliateCommissions.partnerId, partnerId) : undefined))
      .groupBy(affiliateCommissions.partnerId, affiliateCommissions.currency),
    db
      .select({ partnerId: affiliatePayouts.partnerId, currency: affiliatePayouts.currency, paid: sql<number>`coalesce(sum(${affiliatePayouts.amount}), 0)` })
      .from(affiliatePayouts)
      .where(ofTenant(affiliatePayouts, tenantId, partnerId ? eq(affiliatePayouts.partnerId, partnerId) : undefined))
      .groupBy(affiliatePayouts.partnerId, affiliatePayouts.currency),
  ])
  const out = new Map<string, CurrencyFigures & { partnerId: string }>()
  const at = (p: string, c: string) => {
    const key = `${p}:${c}`
    let row = out.get(key)
    if (!row) out.set(key, (row = { partnerId: p, currency: c, sales: 0, accrued: 0, reversed: 0, paid: 0, owed: 0 }))
    return row
  }
  for (const r of commissions) Object.assign(at(r.partnerId, r.currency), { sales: Number(r.sales), accrued: Number(r.accrued), reversed: Number(r.reversed), owed: Number(r.owed) })
  for (const r of payouts) at(r.partnerId, r.currency).paid = Number(r.paid)
  return [...out.values()].sort((a, b) => a.currency.localeCompare(b.currency))
}

export async function listPartners(db: ShardDb, tenantId: string, limit = 500) {
  const [partners, figures] = await Promise.all([
    db.select().from(affiliatePartners).where(ofTenant(affiliatePartners, tenantId)).orderBy(desc(affiliatePartners.createdAt)).limit(limit),
    partnerFigures(db, tenantId),
  ])
  return partners.map((p) => ({ ...p, figures: figures.filter((f) => f.partnerId === p.id) }))
}

/** A partner's sales, newest first: what the owner and the partner's own page show (never the buyer). */
export async function listPartnerSales(db: ShardDb, tenantId: string, partnerId: string, limit = 50) {
  return db
    .select({
      id: affiliateCommissions.id,
      transactionId: affiliateCommissions.transactionId,
      createdAt: affiliateCommissions.createdAt,
      product: transactions.productTitle,
      currency: affiliateCommissions.currency,
      saleAmount: affiliateCommissions.saleAmount,
      amount: affiliateCommissions.amount,
      status: affiliateCommissions.status,
      paid: sql<number>`${affiliateCommissions.payoutId} is not null`,
      refunded: sql<number>`${transactions.status} = 'refunded'`,
    })
    .from(affiliateCommissions)
    .innerJoin(transactions, ofTenant(transactions, affiliateCommissions.tenantId, eq(transactions.id, affiliateCommissions.transactionId)))
    .where(ofTenant(affiliateCommissions, tenantId, eq(affiliateCommissions.partnerId, partnerId)))
    .orderBy(desc(affiliateCommissions.createdAt))
    .limit(limit)
}

export async function listPartnerPayouts(db: ShardDb, tenantId: string, partnerId: string, limit = 50) {
  return db
    .select({ id: affiliatePayouts.id, currency: affiliatePayouts.currency, amount: affiliatePayouts.amount, paidAt: affiliatePayouts.paidAt })
    .from(affiliatePayouts)
    .where(ofTenant(affiliatePayouts, tenantId, eq(affiliatePayouts.partnerId, partnerId)))
    .orderBy(desc(affiliatePayouts.paidAt))
    .limit(limit)
}

/**
 * "Mark paid" for one currency, in ONE batch: the payout row is the sum of what is owed (less what
 * is to be clawed back), and the same rows get its id (owed ones) or are closed as reversed
 * (claw-backs). Null when there was nothing to settle.
 */
export async function markPartnerPaid(db: ShardDb, tenantId: string, partnerId: string, currency: string, now = Date.now()) {
  const payoutId = newId()
  const mine = ofTenant(affiliateCommissions, tenantId, eq(affiliateCommissions.partnerId, partnerId), eq(affiliateCommissions.currency, currency))
  const payoutExists = sql`exists (select 1 from ${affiliatePayouts} where ${affiliatePayouts.tenantId} = ${tenantId} and ${affiliatePayouts.id} = ${payoutId})`
  const [inserted] = await db.batch([
    db
      .insert(affiliatePayouts)
      .select(
        sql`select ${payoutId}, ${tenantId}, ${partnerId}, ${currency}, coalesce(sum(case when ${owedNow} then ${affiliateCommissions.amount} else -${affiliateCommissions.amount} end), 0), '', ${now}, ${now}
          from ${affiliateCommissions} where ${mine} and (${owedNow} or ${clawback}) having count(*) > 0`,
      )
      .returning({ id: affiliatePayouts.id, amount: affiliatePayouts.amount }),
    db.update(affiliateCommissions).set({ status: 'reversed', reversedAt: now }).where(and(mine, clawback, payoutExists)),
    db.update(affiliateCommissions).set({ payoutId }).where(and(mine, owedNow, payoutExists)),
  ])
  return inserted[0] ?? null
}

// ---- The stats page's data and the checkout ------------------------------------------------

/** Product slugs for the partner's links: the school's published products. */
export async function listLinkableProducts(db: ShardDb, tenantId: string) {
  return db
    .select({ id: products.id, title: products.title, slug: products.slug })
    .from(products)
    .where(ofTenant(products, tenantId, eq(products.published, true)))
    .orderBy(products.title)
    .limit(200)
}

/**
 * The commission of a sale as one statement of settleTransaction's batch, run only under its
 * grant guard (so once with the grant): percent floor(total × value / 100) or fixed min(value,
 * total); the partner's own purchase (same e-mail as the buyer) records 0 as self_referral. The
 * unique transaction_id makes any replay a no-op.
 */
export function commissionStatement(
  db: ShardDb,
  tenantId: string,
  tx: { id: string; affiliatePartnerId: string; currency: string; totalAmount: number; buyerEmail: string },
  guard: ReturnType<typeof sql>,
  now: number,
) {
  const p = affiliatePartners
  const self = sql`lower(${p.email}) = ${tx.buyerEmail.trim().toLowerCase()}`
  const amount = sql`case when ${self} then 0 when ${p.commissionKind} = 'percent' then cast((${tx.totalAmount} * ${p.commissionValue}) / 100 as integer) else cast(min(${p.commissionValue}, ${tx.totalAmount}) as integer) end`
  return db
    .insert(affiliateCommissions)
    .select(
      sql`select ${newId()}, ${tenantId}, ${p.id}, ${tx.id}, ${tx.currency}, ${tx.totalAmount}, ${amount}, case when ${self} then 'self_referral' else 'accrued' end, null, null, ${now}
        from ${p} where ${ofTenant(p, tenantId, eq(p.id, tx.affiliatePartnerId))} and ${guard}`,
    )
    .onConflictDoNothing()
}

/** The refund's batch: an unpaid commission of the sale is reversed (a paid one is clawed back later). */
export function reverseCommissionStatement(db: ShardDb, tenantId: string, transactionId: string, guard: ReturnType<typeof sql>, now: number) {
  return db
    .update(affiliateCommissions)
    .set({ status: 'reversed', reversedAt: now })
    .where(ofTenant(affiliateCommissions, tenantId, eq(affiliateCommissions.transactionId, transactionId), eq(affiliateCommissions.status, 'accrued'), isNull(affiliateCommissions.payoutId), guard))
}
