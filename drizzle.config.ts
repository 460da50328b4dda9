import { defineConfig } from 'drizzle-kit'

export default defineConfig({
  dialect: 'sqlite',
  schema: './app/db/schema.server.ts',
  out: './migrations',
  // Wrangler keeps its own bookkeeping table in the same database: never diff or drop it.
  tablesFilter: ['!d1_migrations', '!_cf_*'],
})
