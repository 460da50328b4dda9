// The school's students as the instructor panel sees them (issue 5 §4): list with search and
// pages, add one, import up to 50 emails, details, CSV export rows, and the invitation that lets
// an added or imported student choose a password (its e-mail: app/students/invitations.server.ts).
// Every function takes the tenant explicitly.
import { asc, count, desc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { authTokens, users } from '#app/db/schema.server.ts'
import { email as emailSchema } from '#app/utils/validation.ts'
import { buildAuthToken, consumeAuthToken } from './auth-token.server.ts'
import { deleteUserSessionsQuery } from './session.server.ts'
import { buildUser } from './user.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export const STUDENTS_PER_PAGE = 25
export const IMPORT_MAX = 50
export const NAME_MAX = 70

const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))

/**
 * A well-formed scrypt hash of nothing anyone knows: logging in runs the same work as for a real
 * password and never matches, until the student sets one from the invitation.
 */
export function unusablePasswordHash() {
  const random = (n: number) => crypto.getRandomValues(new Uint8Array(n))
  return ['scrypt', 16384, 8, 5, base64(random(16)), base64(random(32))].join('$')
}

/** `%` and `_` typed by the user are literal characters, not wildcards. */
const likePattern = (term: string) => `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`

export type StudentListItem = { id: string; name: string; email: string; createdAt: number; activeProducts: number }

/** One page of the school's students, newest first, matching `search` in name or email. */
export async function listStudents(db: ShardDb, tenantId: string, { search = '', page = 1, now = Date.now() }: { search?: string; page?: number; now?: number } = {}) {
  const term = search.trim()
  const pattern = likePattern(term)
  const where = ofTenant(
    users,
    tenantId,
    eq(users.role, 'student'),
    term ? or(sql`lower(${users.name}) LIKE ${pattern} ESCAPE '\\'`, sql`${users.email} LIKE ${pattern} ESCAPE '\\'`) : undefined,
  )
  const [{ total }] = await db.select({ total: count() }).from(users).where(where)
  const pageCount = Math.max(1, Math.ceil(total / STUDENTS_PER_PAGE))
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pageCount)
  // Correlated subquery: columns are written qualified (drizzle renders bare names inside sql``).
  const activeProducts = sql<number>`(select count(*) from "product_access" pa where pa."tenant_id" = "users"."tenant_id" and pa."user_id" = "users"."id"
    and pa."revoked_at" is null and pa."starts_at" <= ${now} and (pa."expires_at" is null or pa."expires_at" > ${now}))`
  const students: StudentListItem[] = await db
    .select({ id: users.id, name: users.name, email: users.email, createdAt: users.createdAt, activeProducts })
    .from(users)
    .where(where)
    .orderBy(desc(users.createdAt), asc(users.email))
    .limit(STUDENTS_PER_PAGE)
    .offset((current - 1) * STUDENTS_PER_PAGE)
  return { students, total, page: current, pageCount }
}

/** A student of this school (owners and admins are not students: undefined). */
export async function getStudent(db: ShardDb, tenantId: string, studentId: string) {
  const rows = await db
    .select({ id: users.id, name: users.name, email: users.email, phone: users.phone, vatId: users.vatId, createdAt: users.createdAt })
    .from(users)
    .where(ofTenant(users, tenantId, eq(users.id, studentId), eq(users.role, 'student')))
    .limit(1)
  return rows[0]
}

/** Is an invitation of this user still waiting to be used? */
export async function hasPendingInvitation(db: ShardDb, tenantId: string, userId: string, now = Date.now()) {
  const rows = await db
    .select({ id: authTokens.id })
    .from(authTokens)
    .where(ofTenant(authTokens, tenantId, eq(authTokens.userId, userId), eq(authTokens.purpose, 'invitation'), isNull(authTokens.usedAt), gt(authTokens.expiresAt, now)))
    .limit(1)
  return rows.length > 0
}

/** Every student for the CSV export, oldest first (capped: D1 answers stay small). */
export async function listStudentsForExport(db: ShardDb, tenantId: string, limit = 10_000) {
  return db
    .select({ name: users.name, email: users.email, phone: users.phone, vatId: users.vatId, createdAt: users.createdAt })
    .from(users)
    .where(ofTenant(users, tenantId, eq(users.role, 'student')))
    .orderBy(asc(users.createdAt), asc(users.email))
    .limit(limit)
}

/** A student who was just created and must get an invitation (the token is only in memory). */
export type InvitedStudent = { id: string; name: string; email: string; token: string }

/** Add one student with an unusable password and an invitation token; null if the email has an account here. */
export async function addStudent(db: ShardDb, tenantId: string, input: { name: string; email: string }, now = Date.now()): Promise<InvitedStudent | null> {
  const [created] = await createInvitedStudents(db, tenantId, [input], now)
  return created ?? null
}

/** Users and their invitation tokens; emails that already have an account are skipped (the unique index decides). */
async function createInvitedStudents(db: ShardDb, tenantId: string, people: Array<{ name: string; email: string }>, now: number): Promise<InvitedStudent[]> {
  if (people.length === 0) return []
  // One statement per user (D1 caps bound parameters per statement), all in one batch.
  const inserts = people.map((p) =>
    db
      .insert(users)
      .values(buildUser(tenantId, { email: p.email, name: p.name, passwordHash: unusablePasswordHash(), role: 'student' }, now))
      .onConflictDoNothing()
      .returning({ id: users.id, name: users.name, email: users.email }),
  )
  const results = await db.batch(inserts as [(typeof inserts)[number], ...typeof inserts])
  const created = results.flatMap((rows) => rows)
  if (created.length === 0) return []
  const tokens = created.map((u) => ({ user: u, ...buildAuthToken(tenantId, u.id, 'invitation', now) }))
  const tokenInserts = tokens.map((t) => db.insert(authTokens).values(t.row))
  await db.batch(tokenInserts as [(typeof tokenInserts)[number], ...typeof tokenInserts])
  return tokens.map((t) => ({ ...t.user, token: t.token }))
}

export type ImportLineError = { line: number; value: string }
export type ParsedImport = { ok: true; emails: string[] } | { ok: false; reason: 'empty' } | { ok: false; reason: 'too_many'; count: number } | { ok: false; reason: 'invalid'; invalid: ImportLineError[] }

/**
 * The import textarea: one email per line, blank lines ignored. More than 50 lines is refused as a
 * whole; any invalid line refuses the import and is listed (seed 001 §5, §8).
 */
export function parseImport(text: string): ParsedImport {
  const lines = text
    .split(/\r\n|\r|\n/)
    .map((value, i) => ({ line: i + 1, value: value.trim() }))
    .filter((l) => l.value !== '')
  if (lines.length === 0) return { ok: false, reason: 'empty' }
  if (lines.length > IMPORT_MAX) return { ok: false, reason: 'too_many', count: lines.length }
  const emails: string[] = []
  const invalid: ImportLineError[] = []
  for (const l of lines) {
    const parsed = emailSchema().safeParse(l.value)
    if (parsed.success) emails.push(parsed.data)
    else invalid.push({ line: l.line, value: l.value.slice(0, 254) })
  }
  return invalid.length ? { ok: false, reason: 'invalid', invalid } : { ok: true, emails }
}

/** A name to greet an imported student by until they choose their own: the address's local part. */
export const nameFromEmail = (email: string) => email.split('@')[0].slice(0, NAME_MAX)

/**
 * Create a student for each valid email (at most 50). Repeats in the list and addresses that
 * already have an account here are reported, never duplicated.
 */
export async function importStudents(db: ShardDb, tenantId: string, emails: string[], now = Date.now()) {
  if (emails.length > IMPORT_MAX) throw new Error('importStudents: more than 50 emails')
  const seen = new Set<string>()
  const duplicates: string[] = []
  const unique: string[] = []
  for (const e of emails) {
    if (seen.has(e)) duplicates.push(e)
    else unique.push(e), seen.add(e)
  }
  const taken = unique.length
    ? new Set((await db.select({ email: users.email }).from(users).where(ofTenant(users, tenantId, inArray(users.email, unique)))).map((r) => r.email))
    : new Set<string>()
  const created = await createInvitedStudents(
    db,
    tenantId,
    unique.filter((e) => !taken.has(e)).map((e) => ({ email: e, name: nameFromEmail(e) })),
    now,
  )
  // Anyone not created (taken before, or by a racing request) already has an account.
  const createdEmails = new Set(created.map((c) => c.email))
  return { created, existing: unique.filter((e) => !createdEmails.has(e)), duplicates }
}

/**
 * Use an invitation once: the student's name and password are set and any old sessions end.
 * Null when the token is unknown, used, expired or another school's.
 */
export async function acceptInvitation(db: ShardDb, tenantId: string, token: string, input: { name: string; passwordHash: string }) {
  const used = await consumeAuthToken(db, tenantId, 'invitation', token)
  if (!used) return null
  await db.batch([
    db
      .update(users)
      .set({ name: input.name, passwordHash: input.passwordHash, updatedAt: Date.now() })
      .where(ofTenant(users, tenantId, eq(users.id, used.userId))),
    deleteUserSessionsQuery(db, tenantId, used.userId),
  ])
  return used.userId
}
