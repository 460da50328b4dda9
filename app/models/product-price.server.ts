// Price variants of a product (up to 3, minor units) and the history of every price offered, so
// the storefront can show the lowest price of the last 30 days (seed 001 §9). Tenant explicit.
import { and, asc, desc, eq, gte, inArray, lt, lte } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { productPriceHistory, productPrices, products, type Product } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export const MAX_PRICE_VARIANTS = 3
export const LOWEST_PRICE_WINDOW_MS = 30 * 24 * 60 * 60 * 1000

export type PriceVariant = { name: string; amount: number }
export type ProductPrice = typeof productPrices.$inferSelect

/** The variants in order (the first is the main price). */
export function listPrices(db: ShardDb, tenantId: string, productId: string): Promise<ProductPrice[]> {
  return db
    .select()
    .from(productPrices)
    .where(ofTenant(productPrices, tenantId, eq(productPrices.productId, productId)))
    .orderBy(asc(productPrices.position), asc(productPrices.createdAt))
}

/** Main prices of many products at once (list pages). */
export async function mainPricesOf(db: ShardDb, tenantId: string, productIds: string[]): Promise<Map<string, ProductPrice[]>> {
  const out = new Map<string, ProductPrice[]>()
  if (productIds.length === 0) return out
  const rows = await db
    .select()
    .from(productPrices)
    .where(ofTenant(productPrices, tenantId, inArray(productPrices.productId, productIds)))
    .orderBy(asc(productPrices.position))
  for (const r of rows) out.set(r.productId, [...(out.get(r.productId) ?? []), r])
  return out
}

async function ownsProduct(db: ShardDb, tenantId: string, productId: string) {
  const rows = await db.select({ id: products.id }).from(products).where(ofTenant(products, tenantId, eq(products.id, productId))).limit(1)
  return rows.length > 0
}

/**
 * Replaces the variants by position, keeping a variant's row (and id) when its position stays,
 * and records a history row whenever a variant's amount is new or changed. `[]` = free product.
 * False when the product is not this school's.
 */
export async function setPrices(db: ShardDb, tenantId: string, productId: string, variants: PriceVariant[], now = Date.now()): Promise<boolean> {
  if (variants.length > MAX_PRICE_VARIANTS) throw new Error(`setPrices: at most ${MAX_PRICE_VARIANTS} variants`)
  if (variants.some((v) => !Number.isSafeInteger(v.amount) || v.amount < 0)) throw new Error('setPrices: amounts are non-negative integers (minor units)')
  if (!(await ownsProduct(db, tenantId, productId))) return false
  const existing = await listPrices(db, tenantId, productId)
  const history: Array<typeof productPriceHistory.$inferInsert> = []
  for (const [position, variant] of variants.entries()) {
    const current = existing[position]
    if (current) {
      if (current.amount !== variant.amount || current.name !== variant.name) {
        await db
          .update(productPrices)
          .set({ name: variant.name, amount: variant.amount, updatedAt: now })
          .where(ofTenant(productPrices, tenantId, eq(productPrices.id, current.id)))
      }
      if (current.amount !== variant.amount) history.push({ id: newId(), tenantId, productId, priceId: current.id, amount: variant.amount, kind: 'standard', recordedAt: now })
    } else {
      const id = newId()
      await db.insert(productPrices).values({ id, tenantId, productId, name: variant.name, amount: variant.amount, position, createdAt: now, updatedAt: now })
      history.push({ id: newId(), tenantId, productId, priceId: id, amount: variant.amount, kind: 'standard', recordedAt: now })
    }
  }
  const removed = existing.slice(variants.length).map((p) => p.id)
  if (removed.length) await db.delete(productPrices).where(ofTenant(productPrices, tenantId, inArray(productPrices.id, removed)))
  if (history.length) await db.insert(productPriceHistory).values(history)
  return true
}

/** Records a promotion price from the moment it applies (its start, or now if already started). */
export async function recordPromoPrice(db: ShardDb, tenantId: string, productId: string, amount: number, startsAt: number | null, now = Date.now()) {
  await db.insert(productPriceHistory).values({ id: newId(), tenantId, productId, priceId: null, amount, kind: 'promo', recordedAt: Math.max(now, startsAt ?? now) })
}

export function listPriceHistory(db: ShardDb, tenantId: string, productId: string) {
  return db
    .select()
    .from(productPriceHistory)
    .where(ofTenant(productPriceHistory, tenantId, eq(productPriceHistory.productId, productId)))
    .orderBy(asc(productPriceHistory.recordedAt))
}

type PromoFields = Pick<Product, 'isFree' | 'promoPrice' | 'promoStartsAt' | 'promoEndsAt' | 'promoLimit' | 'promoSold'>

/** Whether the promotion applies at `now`: within its dates and while packages remain (-1 unlimited). */
export function promoActive(product: PromoFields, now = Date.now()) {
  if (product.isFree || product.promoPrice === null) return false
  if (product.promoStartsAt !== null && now < product.promoStartsAt) return false
  if (product.promoEndsAt !== null && now > product.promoEndsAt) return false
  if (product.promoLimit !== -1 && product.promoSold >= product.promoLimit) return false
  return true
}

export type EffectivePrice = { amount: number; standard: number; promo: boolean } | { amount: 0; standard: 0; promo: false; free: true } | null

/**
 * What a buyer pays for the main variant at `now`: the promotion price until its end date or its
 * last package, then the standard price. null: a paid product without a price (not sellable).
 */
export function effectivePrice(product: PromoFields, prices: Array<Pick<ProductPrice, 'amount'>>, now = Date.now()): EffectivePrice {
  if (product.isFree) return { amount: 0, standard: 0, promo: false, free: true }
  const main = prices[0]
  if (!main) return null
  if (promoActive(product, now) && product.promoPrice! < main.amount) return { amount: product.promoPrice!, standard: main.amount, promo: true }
  return { amount: main.amount, standard: main.amount, promo: false }
}

/**
 * Lowest price offered in the 30 days before `now`: each variant's price in force when the window
 * opened, every price recorded inside it (standard and promotion), and the price in force now.
 * null for a free product or one never priced.
 */
export async function lowestPriceLast30Days(db: ShardDb, tenantId: string, productId: string, now = Date.now()): Promise<number | null> {
  const rows = await db.select().from(products).where(ofTenant(products, tenantId, eq(products.id, productId))).limit(1)
  const product = rows[0]
  if (!product || product.isFree) return null
  const from = now - LOWEST_PRICE_WINDOW_MS
  const base = ofTenant(productPriceHistory, tenantId, eq(productPriceHistory.productId, productId))
  const inWindow = await db
    .select({ amount: productPriceHistory.amount })
    .from(productPriceHistory)
    .where(and(base, gte(productPriceHistory.recordedAt, from), lte(productPriceHistory.recordedAt, now)))
  // Standard prices recorded before the window still applied when it opened (the latest per variant).
  const before = await db
    .select({ priceId: productPriceHistory.priceId, amount: productPriceHistory.amount })
    .from(productPriceHistory)
    .where(and(base, eq(productPriceHistory.kind, 'standard'), lt(productPriceHistory.recordedAt, from)))
    .orderBy(desc(productPriceHistory.recordedAt))
  const seen = new Set<string | null>()
  const amounts = inWindow.map((r) => r.amount)
  for (const r of before) {
    if (seen.has(r.priceId)) continue
    seen.add(r.priceId)
    amounts.push(r.amount)
  }
  const current = effectivePrice(product, await listPrices(db, tenantId, productId), now)
  if (current) amounts.push(current.amount)
  return amounts.length ? Math.min(...amounts) : null
}
