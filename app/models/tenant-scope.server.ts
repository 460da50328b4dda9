// The one tenant-bound query helper (issue 20, ADR 025). Every statement on a tenant-owned table
// scopes it with `ofTenant(table, tenantId, …)` in its where (and every joined tenant-owned table
// with `ofTenant` or `sameTenant` in its join condition), so isolation is a mechanism, not a
// convention: scripts/check-tenant-scope.mjs fails CI on a statement that bypasses it, unless its
// function is named in app/models/cross-tenant.ts with the reason it crosses schools.
import { and, eq, type SQL, type SQLWrapper } from 'drizzle-orm'
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core'

/** A table (or an alias of one) with a `tenantId` column: passing any other table is a compile error. */
export type TenantTable = { tenantId: SQLiteColumn }

/**
 * `tenant_id = tenantId AND …conditions` (undefined conditions are skipped, like `and`). The
 * tenant may be a value or a column (a join on a table's tenant).
 */
export function ofTenant(table: TenantTable, tenantId: string | SQLWrapper, ...conditions: Array<SQLWrapper | undefined>): SQL {
  return and(eq(table.tenantId, tenantId), ...conditions) as SQL
}

/** Join condition: `joined` belongs to the same school as `base` (both tenant-owned). */
export function sameTenant(joined: TenantTable, base: TenantTable): SQL {
  return eq(joined.tenantId, base.tenantId)
}
