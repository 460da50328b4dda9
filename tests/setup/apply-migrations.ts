import { applyD1Migrations, env, type D1Migration } from 'cloudflare:test'

// Storage is isolated per test file; migrations already applied are skipped.
const bindings = env as unknown as Record<string, unknown> & { TEST_EXTRA_MIGRATIONS?: { binding: string; migrations: D1Migration[] }[] }
if (bindings.DB) await applyD1Migrations(env.DB, env.TEST_MIGRATIONS)
// The shards (ADR 033) and peers' databases, where this project binds them.
for (const extra of bindings.TEST_EXTRA_MIGRATIONS ?? []) if (bindings[extra.binding]) await applyD1Migrations(bindings[extra.binding] as D1Database, extra.migrations)
