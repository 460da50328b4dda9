import { defineConfig } from 'drizzle-kit'

// The control plane's migrations (ADR 033): tenants, domains, operators, platform tables.
export default defineConfig({
  dialect: 'sqlite',
  schema: './app/db/control-schema.server.ts',
  out: './migrations/control',
  // Wrangler keeps its own bookkeeping table in the same database: never diff or drop it.
  tablesFilter: ['!d1_migrations', '!_cf_*'],
})
