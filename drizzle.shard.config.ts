import { defineConfig } from 'drizzle-kit'

// Every shard's migrations (ADR 033): the tables that carry tenant_id. The same folder is applied
// to DB_SHARD_0 … DB_SHARD_{N-1}, so every shard has the same schema.
export default defineConfig({
  dialect: 'sqlite',
  schema: './app/db/shard-schema.server.ts',
  out: './migrations/shard',
  // Wrangler keeps its own bookkeeping table in the same database: never diff or drop it.
  tablesFilter: ['!d1_migrations', '!_cf_*'],
})
