// One login procedure for school users and platform operators: throttle first, then a
// constant-effort password check, then count the failure.
import type { Db } from '#app/db/client.server.ts'
import { clearLoginFailures, lockoutSecondsLeft, recordLoginFailure, throttleKey } from '#app/models/login-throttle.server.ts'
import type { FieldMessage } from './validation.ts'
import { getDummyHash, verifyPassword } from './password.server.ts'

type Account = { id: string; passwordHash: string }

export async function attemptLogin<A extends Account>({
  db,
  scope,
  email,
  password,
  ip,
  findAccount,
}: {
  db: Db
  scope: string
  email: string
  password: string
  ip: string
  findAccount: () => Promise<A | undefined | null>
}): Promise<{ ok: true; account: A } | { ok: false; error: FieldMessage }> {
  const key = throttleKey(email, ip)
  const locked = await lockoutSecondsLeft(db, scope, key)
  if (locked > 0) return { ok: false, error: { key: 'auth.login.throttled', values: { count: locked } } }

  const account = await findAccount()
  const valid = await verifyPassword(password, account?.passwordHash ?? (await getDummyHash()))
  if (account && valid) {
    await clearLoginFailures(db, scope, key)
    return { ok: true, account }
  }
  const lockout = await recordLoginFailure(db, scope, key)
  if (lockout > 0) return { ok: false, error: { key: 'auth.login.throttled', values: { count: lockout } } }
  return { ok: false, error: { key: 'auth.login.failed' } }
}
