#!/usr/bin/env node
// node scripts/check-tenant-scope.mjs: every drizzle statement on a tenant-owned table in app/ and
// workers/ goes through ofTenant/sameTenant (app/models/tenant-scope.server.ts) or sits in a function
// named in app/models/cross-tenant.ts (scripts/lib/tenant-scope.mjs, ADR 025). Tenant-owned tables:
// those of app/db/schema.server.ts with a tenantId column. tests/tenant-scope.test.ts runs the same
// check in `npm test`.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import path from 'node:path'
import { ROOT } from './check-layers.mjs'
import { checkTenantScope, parseAllowList, tenantTablesOf, violationText } from './lib/tenant-scope.mjs'

/** The schema's sources (ADR 033: the control plane's tables and the shards'). */
export const SCHEMA_FILES = ['app/db/control-schema.server.ts', 'app/db/shard-schema.server.ts']
export const schemaSource = (root = ROOT) => SCHEMA_FILES.map((f) => readFileSync(path.join(root, f), 'utf8')).join('\n')
export const ALLOW_LIST = path.join(ROOT, 'app/models/cross-tenant.ts')

/** The TypeScript sources of app/ and workers/ (workers/shared/ included), tracked or new. */
export function sourceFiles(root = ROOT) {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'app', 'workers'], { cwd: root, encoding: 'utf8' })
  const files = new Map()
  for (const file of listed.split('\n').filter((f) => /\.(ts|tsx)$/.test(f) && !f.endsWith('.d.ts'))) {
    try {
      files.set(file, readFileSync(path.join(root, file), 'utf8'))
    } catch {
      // Deleted in the work tree but still in the index.
    }
  }
  return files
}

/** The violations of the working tree. */
export function checkRepository(root = ROOT) {
  const tables = tenantTablesOf(schemaSource(root))
  const allowList = parseAllowList(readFileSync(path.join(root, 'app/models/cross-tenant.ts'), 'utf8'))
  return checkTenantScope(sourceFiles(root), tables, allowList)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const found = checkRepository()
  for (const v of found) console.error(`✖ ${violationText(v)}`)
  console.log(`${found.length} tenant-scope violations`)
  process.exit(found.length ? 1 : 0)
}
