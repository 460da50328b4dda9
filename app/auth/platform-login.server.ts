// "Log in to your school" on the platform site (issue 23 §6). The page answers the same whatever
// the address holds; the schools are only ever named in one e-mail to that address, with a
// one-time sign-in link into each (auth_tokens 'login_link', 30 min, hash stored) built on the
// school's own configured origin. Requests are counted per IP and per address before anything
// is looked up, so the limits reveal nothing either.
import { allShards, shardDb } from '#app/db/shards.server.ts'
import type { AppLoadContext } from '@remix-run/cloudflare'
import type { Locale } from '#app/i18n/i18n.ts'
import { createAuthTokens } from '#app/models/auth-token.server.ts'
import { enqueueEmail } from '#app/models/email-outbox.server.ts'
import { PLATFORM_SCOPE, quotaSecondsLeft, takeQuotaTurn, returnQuotaTurn, type QuotaPolicy, type ThrottleDbs } from '#app/models/login-throttle.server.ts'
import { schoolEmailOriginById } from '#app/models/school-address.server.ts'
import { listAccountsByEmailForPlatformLogin } from '#app/models/user.server.ts'
import { platformLoginEmail } from '#app/mail/auth-mail.server.ts'
import { emailUrl } from '#app/utils/school-origin.server.ts'

const MINUTE = 60_000
/** One network: 10 requests an hour (a shared office still gets through). */
export const PLATFORM_LOGIN_IP_POLICY: QuotaPolicy = { max: 10, windowMs: 60 * MINUTE }
/** One address: 3 e-mails an hour, so the form cannot be used to flood a mailbox. */
export const PLATFORM_LOGIN_EMAIL_POLICY: QuotaPolicy = { max: 3, windowMs: 60 * MINUTE }

export const loginLinkPath = (token: string) => `/login-link/${token}`

const ipKey = (ip: string) => `platform-login-ip|${ip}`
const emailKey = (email: string) => `platform-login-email|${email.trim().toLowerCase()}`

/** A turn for this IP and address, or the minutes to wait; a refusal leaves nothing counted. */
export async function takePlatformLoginTurn(db: ThrottleDbs, ip: string, email: string, now = Date.now()): Promise<{ ok: true } | { ok: false; minutes: number }> {
  if (!(await takeQuotaTurn(db, PLATFORM_SCOPE, ipKey(ip), PLATFORM_LOGIN_IP_POLICY, now))) {
    return { ok: false, minutes: Math.max(1, Math.ceil((await quotaSecondsLeft(db, PLATFORM_SCOPE, ipKey(ip), PLATFORM_LOGIN_IP_POLICY, now)) / 60)) }
  }
  if (!(await takeQuotaTurn(db, PLATFORM_SCOPE, emailKey(email), PLATFORM_LOGIN_EMAIL_POLICY, now))) {
    await returnQuotaTurn(db, PLATFORM_SCOPE, ipKey(ip))
    return { ok: false, minutes: Math.max(1, Math.ceil((await quotaSecondsLeft(db, PLATFORM_SCOPE, emailKey(email), PLATFORM_LOGIN_EMAIL_POLICY, now)) / 60)) }
  }
  return { ok: true }
}

/**
 * Mail the address its schools' sign-in links, when it has any; returns how many schools were
 * listed (for tests and logs only: the page never shows it). Students of a school whose login is
 * switched off are left out (they could not sign in there); owners and admins never are.
 */
export async function sendSchoolSignInLinks(context: AppLoadContext, email: string, locale: Locale) {
  const env = context.cloudflare.env
  const accounts = (await listAccountsByEmailForPlatformLogin(context.control, allShards(env).map((s) => s.db), email)).filter((a) => a.role !== 'student' || !a.loginDisabled)
  if (accounts.length === 0) return 0
  // Each school's token in its own shard (ADR 033).
  const tokens = await Promise.all(accounts.map(async (a) => (await createAuthTokens(shardDb(env, a.shard), [{ tenantId: a.tenantId, userId: a.userId, purpose: 'login_link' as const }]))[0]!))
  const links = []
  for (const [i, account] of accounts.entries()) {
    const origin = await schoolEmailOriginById(context.control, env, account.tenantId)
    if (origin) links.push({ school: account.school, role: account.role, url: emailUrl(origin, loginLinkPath(tokens[i]!)) })
  }
  // One message; the outbox is per school, so it is filed under the first school listed.
  await enqueueEmail(shardDb(env, accounts[0]!.shard), env.MAIL_QUEUE, accounts[0]!.tenantId, platformLoginEmail({ locale, to: email.trim().toLowerCase(), links }))
  return links.length
}
