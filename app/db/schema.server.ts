// The one drizzle schema of Coursefront, in two databases (ADR 033): the control plane
// (control-schema.server.ts: tenants, domains, operators, platform tables) and tenant data
// (shard-schema.server.ts: everything that carries tenant_id, in the school's shard). Queries
// import tables from here; each model function takes the database its tables live in.
// Rule (tested in app/db/schema.test.ts): every tenant-owned table has `tenant_id NOT NULL` and
// an index led by tenant_id. Platform-level tables are listed in PLATFORM_TABLES with a reason.
import type { User } from './shard-schema.server.ts'

export * from './control-schema.server.ts'
export * from './shard-schema.server.ts'

/** The control plane's tables (ADR 033): not tenant-owned, or needed across schools, and why. Every shard table must carry tenant_id. */
export const PLATFORM_TABLES: Record<string, string> = {
  tenants: 'the tenant itself, its shard and what resolution caches for every page',
  domains: 'host → school resolution, before the school (and its shard) is known',
  domain_events: "a domain's lifecycle, next to the domain",
  operators: 'platform staff, not a member of any school',
  operator_sessions: 'sessions of platform staff',
  operator_recovery_codes: "operators' one-time recovery codes (hashed), for a lost authenticator",
  operator_invites: 'invitations to join the platform staff',
  operator_notes: "operators' notes on a school (issue 27 §2): platform staff's, never shown to the school",
  school_exports: "exports of a school's data (issue 27 §8), kept with the school's platform records",
  dead_letters: "messages every queue gave up on, for the operators' console (issue 27 §4): one list across schools",
  platform_webhooks: "the platform's own webhook endpoints at payment providers, not a school's",
  company_lookups: 'public register answers (GUS BIR, VIES) cached per tax number, shared by every school (issue 25)',
  login_attempts: "the platform-wide counters (scope 'platform': per IP across schools, operators, signups); a school's own counters are in its shard",
  school_moves: "moves of schools between shards (ADR 033): where a school's data lives is the control plane's to decide",
  audit_log: "append-only record of operator actions and schools' sensitive changes (issue 27 §5): operators read every school's rows at once",
  d1_migrations: "wrangler's migration bookkeeping",
  sqlite_sequence: "SQLite's internal table",
}

export type UserRole = User['role']
