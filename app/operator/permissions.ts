// What each operator role may do (issue 27 §6). Reading the console is every role's; changing a
// school's standing or money is admin's (fees and withdrawals also finance's); support helps
// owners (sign-in link, view as owner) and otherwise only reads. Checked on the server by
// requireOperator(…, permission); the pages hide what a role cannot use.
import type { OperatorRole } from '#app/db/control-schema.server.ts'

export const OPERATOR_PERMISSIONS = [
  'schools.suspend',
  'schools.fees',
  'schools.move',
  'schools.note',
  'schools.export',
  'schools.delete',
  'withdrawals.pay',
  'domains.check',
  'dead_letters.manage',
  'support.act',
  'operators.manage',
] as const
export type OperatorPermission = (typeof OPERATOR_PERMISSIONS)[number]

const ROLE_PERMISSIONS: Record<OperatorRole, readonly OperatorPermission[]> = {
  admin: OPERATOR_PERMISSIONS,
  finance: ['schools.fees', 'withdrawals.pay', 'schools.note'],
  support: ['support.act', 'schools.note', 'domains.check'],
}

export function operatorCan(role: OperatorRole, permission: OperatorPermission) {
  return ROLE_PERMISSIONS[role].includes(permission)
}

/** Every permission of a role, for the pages to show or hide controls (loader → component). */
export function permissionsOf(role: OperatorRole): Record<OperatorPermission, boolean> {
  return Object.fromEntries(OPERATOR_PERMISSIONS.map((p) => [p, operatorCan(role, p)])) as Record<OperatorPermission, boolean>
}
