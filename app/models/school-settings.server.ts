// The school's settings that live in its shard with its data (ADR 033): tax defaults, legal texts,
// and the row the other shard-side settings (author, bank account, time zone, notification
// preferences, content version) are read from. One row per school, made with the school.
import type { ShardDb } from '#app/db/client.server.ts'
import { schoolSettings, type SchoolSettings } from '#app/db/schema.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

/** The school's row as createSchool writes it (every column at its default). */
export function newSchoolSettings(tenantId: string, now: number): typeof schoolSettings.$inferInsert {
  return { tenantId, createdAt: now, updatedAt: now }
}

/** Saves the given fields on the school's row (made if missing); false only when nothing was written. */
export async function updateSchoolSettings(db: ShardDb, tenantId: string, fields: Partial<Omit<SchoolSettings, 'tenantId' | 'createdAt' | 'updatedAt'>>, now = Date.now()) {
  const rows = await db
    .insert(schoolSettings)
    .values({ ...newSchoolSettings(tenantId, now), ...fields })
    .onConflictDoUpdate({ target: schoolSettings.tenantId, set: { ...fields, updatedAt: now } })
    .returning({ id: schoolSettings.tenantId })
  return rows.length > 0
}

/** The tax choice made at signup (issue 23 §4/§7): prices include VAT at a rate, or no VAT. */
export async function setTenantTaxDefaults(db: ShardDb, tenantId: string, tax: { vatMode: 'vat' | 'none'; defaultVatRate: number }, now = Date.now()) {
  return updateSchoolSettings(db, tenantId, { vatMode: tax.vatMode, defaultVatRate: tax.defaultVatRate }, now)
}

/** The school's tax setting (issue 23 §4): the checkout, receipts and invoices read it. */
export async function getTenantTax(db: ShardDb, tenantId: string): Promise<{ vatMode: 'vat' | 'none'; defaultVatRate: number }> {
  const rows = await db.select({ vatMode: schoolSettings.vatMode, defaultVatRate: schoolSettings.defaultVatRate }).from(schoolSettings).where(ofTenant(schoolSettings, tenantId)).limit(1)
  return rows[0] ?? { vatMode: 'vat', defaultVatRate: 23 }
}

/** What the legal pages (/terms, /privacy; issue 23 §9) need from the shard: the school's texts and the company that fills the templates. */
export async function getTenantLegal(db: ShardDb, tenantId: string) {
  const rows = await db
    .select({ authorName: schoolSettings.authorName, company: schoolSettings.bankAccountHolder, termsMd: schoolSettings.termsMd, privacyMd: schoolSettings.privacyMd })
    .from(schoolSettings)
    .where(ofTenant(schoolSettings, tenantId))
    .limit(1)
  return rows[0]
}

/** Saves the school's terms and privacy policy ('' = the template). */
export async function updateTenantLegal(db: ShardDb, tenantId: string, legal: { termsMd: string; privacyMd: string }, now = Date.now()) {
  return updateSchoolSettings(db, tenantId, legal, now)
}
