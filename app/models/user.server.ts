import { asc, eq, sql } from 'drizzle-orm'
import type { Db } from '#app/db/client.server.ts'
import { users, type UserRole } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export async function getUserById(db: Db, tenantId: string, userId: string) {
  return db.query.users.findFirst({ where: ofTenant(users, tenantId, eq(users.id, userId)) })
}

export async function getUserByEmail(db: Db, tenantId: string, email: string) {
  return db.query.users.findFirst({ where: ofTenant(users, tenantId, eq(users.email, email.toLowerCase())) })
}

export function buildUser(tenantId: string, input: { email: string; name: string; passwordHash: string; role: UserRole }, now = Date.now()) {
  return { id: newId(), tenantId, email: input.email.toLowerCase(), name: input.name, passwordHash: input.passwordHash, role: input.role, createdAt: now, updatedAt: now }
}

/** Insert a user; null when the email already has an account in this school. */
export async function createUser(db: Db, tenantId: string, input: { email: string; name: string; passwordHash: string; role: UserRole }) {
  const row = buildUser(tenantId, input)
  const inserted = await db.insert(users).values(row).onConflictDoNothing().returning()
  return inserted[0] ?? null
}

export function updateUserPassword(db: Db, tenantId: string, userId: string, passwordHash: string) {
  return db
    .update(users)
    .set({ passwordHash, updatedAt: Date.now() })
    .where(ofTenant(users, tenantId, eq(users.id, userId)))
}

export async function listUsers(db: Db, tenantId: string, { role, limit = 100 }: { role?: UserRole; limit?: number } = {}) {
  return db
    .select({ id: users.id, name: users.name, email: users.email, role: users.role, createdAt: users.createdAt })
    .from(users)
    .where(ofTenant(users, tenantId, role ? eq(users.role, role) : undefined))
    .orderBy(asc(users.createdAt))
    .limit(limit)
}

export async function countUsersByRole(db: Db, tenantId: string) {
  const rows = await db
    .select({ role: users.role, count: sql<number>`count(*)` })
    .from(users)
    .where(ofTenant(users, tenantId))
    .groupBy(users.role)
  return Object.fromEntries(rows.map((r) => [r.role, r.count])) as Partial<Record<UserRole, number>>
}
