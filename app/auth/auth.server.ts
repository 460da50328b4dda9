// Sign-in state of a school's users. Sessions are tenant-bound: a cookie minted on one school is
// looked up with that school's tenant id only, so it means nothing on another host.
import { redirect, type AppLoadContext } from '@remix-run/cloudflare'
import type { UserRole } from '#app/db/schema.server.ts'
import type { SQL } from 'drizzle-orm'
import { createSession, deleteSession, sessionLookup } from '#app/models/session.server.ts'
import { clearSessionCookie, readSessionToken, sessionCookie } from '#app/utils/session-cookie.server.ts'
import { clientIp, requireSchool } from '#app/utils/request.server.ts'
import { isDataRequest } from '#app/utils/security.server.ts'
import { getSchoolOwner } from '#app/models/school-overview.server.ts'
import { readViewAs, type ViewAsGrant } from '#app/support/view-as.server.ts'
import { readViewAsCookie } from '#app/utils/view-as-cookie.server.ts'
import { getTranslator } from '#app/i18n/i18n.ts'

export type CurrentUser = {
  id: string
  name: string
  email: string
  role: UserRole
  sessionId: string
  /**
   * Login verification (ADR 017): true when the school asks for a code and this student's
   * session has not confirmed one yet. Such a user is not signed in for anything but /verify.
   */
  verificationPending: boolean
  /** Set when this is an operator viewing the school as its owner (issue 27 §7): read-only, until expiresAt. */
  viewAs?: ViewAsGrant
}

export const VERIFY_PATH = '/verify'

/**
 * The signed-in user of this school, looked up once per request. A student whose session still
 * owes a login verification code counts as signed out (storefront, player, header) unless the
 * caller asks for them: only /verify, its calls and logout do.
 */
export async function getCurrentUser(request: Request, context: AppLoadContext, options: { includeUnverified?: boolean } = {}): Promise<CurrentUser | null> {
  const user = await lookUpUser(request, context)
  if (user?.verificationPending && !options.includeUnverified) return null
  return user
}

const SESSION_BATCH = 'session-batch'
type BatchItem = Parameters<AppLoadContext['db']['batch']>[0][number]
type SessionBatch = { items: BatchItem[]; results: Promise<readonly unknown[]>; userId: SQL; sessionId: string }

/**
 * A page loader's reads that can ride in the session lookup's db.batch (one D1 round trip for the
 * user and the page): null when the request has no session to look up or the batch has left.
 * `userId` is the session's user as SQL (`sessionId`, the session's id, for a compiled query that
 * builds that SQL from placeholders); rows built on it count only when getCurrentUser returns that user. Call before awaiting anything: the lookup waits one macrotask for claims (whichever
 * loader asks first starts it, the others join).
 */
export function joinSessionBatch<T extends BatchItem[]>(request: Request, context: AppLoadContext, build: (userId: SQL, sessionId: string) => [...T]): Promise<readonly unknown[]> | null {
  // The route loader may run before the root's: then it starts the lookup.
  if (!context.memo.has('user')) void lookUpUser(request, context).catch(() => undefined)
  const batch = context.memo.get(SESSION_BATCH) as SessionBatch | undefined
  if (!batch) return null
  const items = build(batch.userId, batch.sessionId)
  const from = batch.items.length
  batch.items.push(...items)
  const rows = batch.results.then((rows) => rows.slice(from, from + items.length))
  rows.catch(() => undefined) // the lookup reports a failed batch; a page that never awaits its rows must not
  return rows
}

async function lookUpUser(request: Request, context: AppLoadContext): Promise<CurrentUser | null> {
  if (context.site.kind !== 'school') return null
  if (context.memo.has('user')) return context.memo.get('user') as CurrentUser | null
  const tenant = context.site.tenant
  if (readViewAsCookie(request)) {
    // An operator's read-only view as the owner (issue 27 §7): the owner, no session of theirs
    // touched; a grant that is no longer valid signs nobody in.
    const pending = (async (): Promise<CurrentUser | null> => {
      const viewAs = await readViewAs(request, context)
      const owner = viewAs ? await getSchoolOwner(context.db, tenant.id) : null
      return owner && viewAs ? { ...owner, role: 'owner', sessionId: '', verificationPending: false, viewAs } : null
    })()
    context.memo.set('user', pending)
    const user = await pending
    context.memo.set('user', user)
    return user
  }
  const lookup = sessionLookup(context.db, tenant.id, readSessionToken(request))
  if (!lookup) {
    context.memo.set('user', null)
    return null
  }
  let release!: (rows: readonly unknown[]) => void
  let fail!: (error: unknown) => void
  const batch: SessionBatch = { items: [], userId: lookup.userId, sessionId: lookup.sessionId, results: new Promise((resolve, reject) => ((release = resolve), (fail = reject))) }
  batch.results.catch(() => undefined)
  context.memo.set(SESSION_BATCH, batch)
  const pending = (async (): Promise<CurrentUser | null> => {
    await new Promise((resolve) => setTimeout(resolve, 0))
    context.memo.delete(SESSION_BATCH)
    let rows: readonly unknown[]
    try {
      rows = await context.db.batch([lookup.query, ...batch.items] as unknown as Parameters<AppLoadContext['db']['batch']>[0])
    } catch (error) {
      fail(error)
      throw error
    }
    release(rows.slice(1))
    const found = await lookup.settle(rows[0] as Awaited<typeof lookup.query>)
    if (!found) return null
    // Owners and admins are never asked; a verified session is never asked again. The school's
    // mode comes with the cached tenant (dropped in this isolate when the setting changes).
    const verificationPending = found.user.role === 'student' && found.session.loginVerifiedAt == null && tenant.loginVerification !== 'off'
    return { ...found.user, sessionId: found.session.id, verificationPending }
  })()
  context.memo.set('user', pending)
  const user = await pending
  context.memo.set('user', user)
  return user
}

function requestPath(request: Request) {
  const url = new URL(request.url)
  return url.pathname.replace(/\.data$/, '') + url.search
}

/**
 * Signed-in user or: 419 for script calls (the client sends the user to /login, seed 000 §7),
 * a redirect to /login for page navigations.
 */
export async function requireUser(request: Request, context: AppLoadContext, roles?: UserRole[], options: { allowUnverified?: boolean } = {}) {
  const tenant = requireSchool(context)
  const user = await getCurrentUser(request, context, { includeUnverified: true })
  if (!user) {
    if (isDataRequest(request) && request.method !== 'GET') {
      const t = getTranslator(tenant.language)
      throw Response.json({ message: t('error.session_expired'), redirectTo: '/login' }, { status: 419 })
    }
    throw redirect(`/login?redirectTo=${encodeURIComponent(requestPath(request))}`)
  }
  if (roles && !roles.includes(user.role)) throw new Response('Not Found', { status: 404 })
  if (user.verificationPending && !options.allowUnverified) throw verificationGate(request)
  return user
}

/** Login verification (ADR 017): pages go to /verify and come back; script calls get 403 JSON. */
function verificationGate(request: Request) {
  const back = requestPath(request)
  if (isDataRequest(request) && request.method !== 'GET') return Response.json({ redirectTo: VERIFY_PATH }, { status: 403, headers: { 'Cache-Control': 'no-store' } })
  return redirect(back === '/panel' || back === '/' ? VERIFY_PATH : `${VERIFY_PATH}?redirectTo=${encodeURIComponent(back)}`)
}

/**
 * For routes open to visitors too (player, comments, lecture calls): a student who still owes a
 * login verification code is sent to /verify (403 {redirectTo} for script calls) instead of being
 * treated as a visitor. Visitors and verified users pass; returns getCurrentUser().
 */
export async function getCurrentUserOrVerify(request: Request, context: AppLoadContext) {
  const user = await getCurrentUser(request, context, { includeUnverified: true })
  if (user?.verificationPending) throw verificationGate(request)
  return user
}

export function homePathFor(role: UserRole) {
  return role === 'student' ? '/panel' : '/home'
}

/** Start a session for a user of this school; returns the Set-Cookie value for the answer. */
export async function startSession(request: Request, context: AppLoadContext, userId: string) {
  const tenant = requireSchool(context)
  const { token } = await createSession(context.db, tenant.id, userId, {
    userAgent: request.headers.get('User-Agent'),
    ip: clientIp(request),
  })
  return sessionCookie(request, token)
}

/** Start a session for a user of this school and send them on. */
export async function signIn(request: Request, context: AppLoadContext, userId: string, redirectTo: string) {
  return redirect(redirectTo, { headers: { 'Set-Cookie': await startSession(request, context, userId) } })
}

export async function signOut(request: Request, context: AppLoadContext) {
  const user = await getCurrentUser(request, context, { includeUnverified: true })
  if (user && context.site.kind === 'school') await deleteSession(context.db, context.site.tenant.id, user.sessionId)
  return redirect('/', { headers: { 'Set-Cookie': clearSessionCookie(request) } })
}
