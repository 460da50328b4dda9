// The company registers' answers cached per tax number (issue 25): `company_lookups` is a
// platform table (public register data, the same for every school). A company found is kept 30
// days, "no such number" 1 day; a register that could not answer is never written.
import { eq } from 'drizzle-orm'
import type { ControlDb } from '#app/db/client.server.ts'
import { companyLookups } from '#app/db/schema.server.ts'
import { z } from 'zod'

/** What a company register answers, as the checkout fills it (the GUS and VIES clients, this cache, the route). */
export const companySchema = z.object({
  name: z.string().max(300),
  street: z.string().max(300),
  postalCode: z.string().max(20),
  city: z.string().max(120),
  /** ISO 3166-1 alpha-2 (the checkout's country field). */
  country: z.string().regex(/^[A-Z]{2}$/),
  regon: z.string().max(14).optional(),
})
export type RegisterCompany = z.infer<typeof companySchema>

export type RegisterAnswer = { found: true; company: RegisterCompany } | { found: false }

const DAY = 24 * 60 * 60_000
export const FOUND_TTL_MS = 30 * DAY
export const NOT_FOUND_TTL_MS = DAY

/** The cached answer for this key while it is fresh, else null. A row that no longer parses counts as absent. */
export async function getCachedCompanyLookup(db: ControlDb, key: string, now = Date.now()): Promise<RegisterAnswer | null> {
  const [row] = await db.select().from(companyLookups).where(eq(companyLookups.key, key)).limit(1)
  if (!row) return null
  if (row.fetchedAt + (row.found ? FOUND_TTL_MS : NOT_FOUND_TTL_MS) <= now) return null
  if (!row.found) return { found: false }
  let json: unknown
  try {
    json = JSON.parse(row.company)
  } catch {
    return null
  }
  const company = companySchema.safeParse(json)
  return company.success ? { found: true, company: company.data } : null
}

/** Store a register's answer (replacing an older one). */
export async function saveCompanyLookup(db: ControlDb, key: string, answer: RegisterAnswer, now = Date.now()) {
  const values = { found: answer.found, company: answer.found ? JSON.stringify(answer.company) : '{}', fetchedAt: now }
  await db
    .insert(companyLookups)
    .values({ key, ...values })
    .onConflictDoUpdate({ target: companyLookups.key, set: values })
}
