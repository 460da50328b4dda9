// One login procedure for school users and platform operators: throttle first (e-mail+IP, the
// account across IPs, the IP across accounts: ADR 024), then a constant-effort password check,
// then count the failure on all three.
import type { ThrottleDbs } from '#app/models/login-throttle.server.ts'
import { clearLoginPair, loginLockedSeconds, recordLoginFailures } from '#app/models/rate-limit.server.ts'
import type { FieldMessage } from '#app/utils/validation.ts'
import { getDummyHash, verifyPassword } from '#app/utils/password.server.ts'

type Account = { id: string; passwordHash: string }

export async function attemptLogin<A extends Account>({
  limits,
  scope,
  email,
  password,
  ip,
  findAccount,
}: {
  /** Where the counters live: the request's context (school shard, control plane). */
  limits: ThrottleDbs
  scope: string
  email: string
  password: string
  ip: string
  findAccount: () => Promise<A | undefined | null>
}): Promise<{ ok: true; account: A } | { ok: false; error: FieldMessage }> {
  const locked = await loginLockedSeconds(limits, scope, email, ip)
  if (locked > 0) return { ok: false, error: { key: 'auth.login.throttled', values: { count: locked } } }

  const account = await findAccount()
  const valid = await verifyPassword(password, account?.passwordHash ?? (await getDummyHash()))
  if (account && valid) {
    await clearLoginPair(limits, scope, email, ip)
    return { ok: true, account }
  }
  const lockout = await recordLoginFailures(limits, scope, email, ip)
  if (lockout > 0) return { ok: false, error: { key: 'auth.login.throttled', values: { count: lockout } } }
  return { ok: false, error: { key: 'auth.login.failed' } }
}
