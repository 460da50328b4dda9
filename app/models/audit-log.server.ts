// The audit log (issue 27 §5), in the control plane: append a row, list a school's rows (its owner,
// an operator's school page) or every school's (the operator console). No update, no delete: the
// table's triggers refuse both (migrations/control/0003_audit_log_append_only.sql).
import { and, desc, eq, lt, or, type SQL } from 'drizzle-orm'
import type { ControlDb } from '#app/db/client.server.ts'
import { auditLog, type AuditAction, type AuditActorKind, type AuditEntry } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

/** The school of an action on no school (an operator account). */
export const PLATFORM_AUDIT_TENANT = 'platform'

export type AuditActor = { kind: AuditActorKind; id: string | null; label: string }

export type NewAuditEntry = {
  tenantId: string
  actor: AuditActor
  action: AuditAction
  target?: string
  ip: string
  before?: Record<string, unknown> | null
  after?: Record<string, unknown> | null
}

const json = (value: Record<string, unknown> | null | undefined) => (value ? JSON.stringify(value) : null)

export function auditInsert(db: ControlDb, entry: NewAuditEntry, now = Date.now()) {
  return db.insert(auditLog).values({
    id: newId(),
    tenantId: entry.tenantId,
    actorKind: entry.actor.kind,
    actorId: entry.actor.id,
    actorLabel: entry.actor.label.slice(0, 300),
    action: entry.action,
    target: (entry.target ?? '').slice(0, 300),
    ip: entry.ip.slice(0, 64),
    before: json(entry.before),
    after: json(entry.after),
    createdAt: now,
  })
}

export async function recordAudit(db: ControlDb, entry: NewAuditEntry, now = Date.now()) {
  await auditInsert(db, entry, now)
}

/** A page of rows, newest first, after the cursor of the previous page (created_at + id). */
export type AuditPage = { rows: AuditEntry[]; next: string | null }
const PAGE = 50

function cursorWhere(cursor: string | null): SQL | undefined {
  const match = cursor ? /^(\d{1,15})~([a-z0-9]{1,40})$/.exec(cursor) : null
  if (!match) return undefined
  const at = Number(match[1])
  return or(lt(auditLog.createdAt, at), and(eq(auditLog.createdAt, at), lt(auditLog.id, match[2]!)))
}

function page(rows: AuditEntry[]): AuditPage {
  const shown = rows.slice(0, PAGE)
  const last = shown.at(-1)
  return { rows: shown, next: rows.length > PAGE && last ? `${last.createdAt}~${last.id}` : null }
}

/** One school's rows, newest first. */
export async function listSchoolAudit(db: ControlDb, tenantId: string, cursor: string | null = null): Promise<AuditPage> {
  return page(
    await db
      .select()
      .from(auditLog)
      .where(ofTenant(auditLog, tenantId, cursorWhere(cursor)))
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(PAGE + 1),
  )
}

/** Every school's rows, newest first (operators only), optionally one action. */
export async function listAllAudit(db: ControlDb, { action, cursor }: { action?: AuditAction | null; cursor?: string | null } = {}): Promise<AuditPage> {
  return page(
    await db
      .select()
      .from(auditLog)
      .where(and(action ? eq(auditLog.action, action) : undefined, cursorWhere(cursor ?? null)))
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(PAGE + 1),
  )
}
