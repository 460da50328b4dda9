// Recording an action in the audit log (issue 27 §5) from a route: who (an operator, or a school's
// owner or admin), from which IP, with the safe before/after values the route passes. The row is
// written after the change succeeded; a failed write of the row is logged, never the user's error.
import type { AppLoadContext } from '@remix-run/cloudflare'
import type { CurrentOperator } from '#app/auth/operator-auth.server.ts'
import type { CurrentUser } from '#app/auth/auth.server.ts'
import { recordAudit, type AuditActor, type NewAuditEntry } from '#app/models/audit-log.server.ts'
import type { AuditEntry } from '#app/db/schema.server.ts'
import { clientIp } from '#app/utils/request.server.ts'

export const operatorActor = (operator: Pick<CurrentOperator, 'id' | 'name' | 'email'>): AuditActor => ({ kind: 'operator', id: operator.id, label: `${operator.name} <${operator.email}>` })

export const staffActor = (user: Pick<CurrentUser, 'id' | 'name' | 'email' | 'role'>): AuditActor => ({
  kind: user.role === 'owner' ? 'owner' : 'admin',
  id: user.id,
  label: `${user.name} <${user.email}>`,
})

export async function audit(context: AppLoadContext, request: Request, entry: Omit<NewAuditEntry, 'ip'>) {
  try {
    await recordAudit(context.control, { ...entry, ip: clientIp(request) })
  } catch (error) {
    console.error(JSON.stringify({ event: 'audit_write_failed', action: entry.action, tenantId: entry.tenantId, error: String(error) }))
  }
}

/** A row as the audit pages send it to the browser: the school named for operators, null on a school's own page. */
export const auditRowView = (r: AuditEntry, school: { id: string; name: string } | null) => ({
  id: r.id,
  createdAt: r.createdAt,
  school,
  actorKind: r.actorKind,
  actorLabel: r.actorLabel,
  action: r.action,
  target: r.target,
  ip: r.ip,
  before: r.before,
  after: r.after,
})
