import { env } from 'cloudflare:workers'
import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { productAccess } from '#app/db/schema.server.ts'
import { db } from '#tests/factories.ts'

// "What does this student hold" is the subquery of every panel, player and access check: it must
// be answered from the student's own index entries, never by reading the school's enrolments.
describe('product_access: a student’s holdings', () => {
  it('are read from product_access_user_idx alone (covering), by tenant and user', async () => {
    const q = db()
      .select({ id: productAccess.productId })
      .from(productAccess)
      .where(and(eq(productAccess.tenantId, 'tenant-plan'), eq(productAccess.userId, 'user-plan')))
      .toSQL()
    const { results } = await (env as unknown as { DB_SHARD_0: D1Database }).DB_SHARD_0.prepare(`EXPLAIN QUERY PLAN ${q.sql}`)
      .bind(...q.params)
      .all<{ detail: string }>()
    expect(results.map((r) => r.detail)).toEqual(['SEARCH product_access USING COVERING INDEX product_access_user_idx (tenant_id=? AND user_id=?)'])
  })
})
