// The platform fee of one school, set by an operator (issue 8 item 4; seed 001 §1 "a percentage
// plus a fixed amount per transaction"). Stored on the tenant row; null = the platform default of
// app/payments/pricing.ts. A new value applies to checkouts started after it (a transaction keeps
// the fee fixed at its checkout). Tenants are platform-level rows: operator use only.
import { eq } from 'drizzle-orm'
import type { ControlDb } from '#app/db/client.server.ts'
import { tenants } from '#app/db/schema.server.ts'

export type FeeOverride = { feeBasisPoints: number | null; feeFixed: number | null }

/** 50 %: anything above is a typo, not a fee. */
export const FEE_BASIS_POINTS_MAX = 5_000
/** 100.00 in the sale's currency. */
export const FEE_FIXED_MAX = 10_000

export async function getFeeOverride(db: ControlDb, tenantId: string): Promise<FeeOverride | undefined> {
  const [row] = await db.select({ feeBasisPoints: tenants.feeBasisPoints, feeFixed: tenants.feeFixed }).from(tenants).where(eq(tenants.id, tenantId)).limit(1)
  return row
}

export async function setFeeOverride(db: ControlDb, tenantId: string, fee: FeeOverride, now = Date.now()) {
  const rows = await db.update(tenants).set({ ...fee, updatedAt: now }).where(eq(tenants.id, tenantId)).returning({ id: tenants.id })
  return rows.length > 0
}

/** "2.5" / "2,5" / "5" (percent, up to two decimals) → basis points; '' → null (the default). */
export function parsePercent(input: string): { ok: true; value: number | null } | { ok: false } {
  const s = input.trim()
  if (!s) return { ok: true, value: null }
  const m = /^(\d{1,3})(?:[.,](\d{1,2}))?$/.exec(s)
  if (!m) return { ok: false }
  const value = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'))
  return value <= FEE_BASIS_POINTS_MAX ? { ok: true, value } : { ok: false }
}
