// Which tables hold a school's data (issue 27 §8), for its export and its deletion. The shard
// tables are the shard schema's own list, the one a move between shards walks (shardTables: parents
// before children), so a table added to the schema is exported and deleted without a change here.
// In the control plane, the school's rows are named below; audit_log is not among them: it is
// append-only (its triggers refuse DELETE) and outlives the school on purpose, as the record of
// what was done to it, the deletion included.
import { shardTables, type MovedTable } from '#app/models/school-move.server.ts'

export type SchoolTable = Pick<MovedTable, 'name' | 'key' | 'selfReferencing'>

/** Every shard table, parents first (the export's order). */
export const exportedShardTables = (): SchoolTable[] => shardTables()

/** Every shard table, children first (the deletion's order: no foreign key is left dangling). */
export const deletedShardTables = (): SchoolTable[] => [...shardTables()].reverse()

/** The school's own control-plane rows in its export (operators' notes and moves are the platform's). */
export const EXPORTED_CONTROL_TABLES = ['domains', 'domain_events'] as const

/**
 * The school's control-plane rows the deletion removes before the tenant row, children first.
 * login_attempts: the school's own counters (scope 'platform' rows carry tenant_id 'platform').
 * dead_letters: messages about the school that no one will redeliver now.
 */
export const DELETED_CONTROL_TABLES = ['domain_events', 'domains', 'school_moves', 'operator_notes', 'school_exports', 'login_attempts', 'dead_letters'] as const

/** Control-plane tables with a tenant_id whose rows outlive the school, and why (the schema gate holds every other one to DELETED_CONTROL_TABLES). */
export const KEPT_CONTROL_TABLES: Readonly<Record<string, string>> = {
  audit_log: 'append-only (its triggers refuse DELETE): the record of what was done to the school, its deletion included',
}

/**
 * Columns whose values never leave in an export, whatever table they are in: password hashes,
 * session / token / verification-code hashes (sessions, auth_tokens, verification_codes…), sealed
 * provider credentials (payment and business integrations), sealed webhook signing secrets and
 * stored-card references at providers. The column stays, its value becomes REDACTED.
 */
export const REDACTED_COLUMNS: ReadonlySet<string> = new Set(['password_hash', 'secret_hash', 'token_hash', 'code_hash', 'credentials', 'secret', 'card_token'])
export const REDACTED = '[redacted]'

/** A row with its secret columns redacted (null stays null: "none" is no secret). */
export function redactRow(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [column, value] of Object.entries(row)) out[column] = REDACTED_COLUMNS.has(column) && value !== null ? REDACTED : value
  return out
}
