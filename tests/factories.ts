// Test data built through the same model functions the app uses.
import { createExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import type { ControlDb, ShardDb } from '#app/db/client.server.ts'
import { controlDb, shardDb, type DatabaseEnv } from '#app/db/shards.server.ts'
import { generateTOTP } from '@oslojs/otp'
import { newTotpKey, sealTotpKey } from '#app/auth/operator-two-factor.server.ts'
import { domains, operators, type DomainStatus, type OperatorRole } from '#app/db/schema.server.ts'
import { createSchool } from '#app/models/school.server.ts'
import { createUser } from '#app/models/user.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { hashPassword } from '#app/utils/password.server.ts'
import type { Flash } from '#app/utils/flash.ts'

export const PLATFORM = 'localhost'
const dbEnv = env as unknown as DatabaseEnv
/** The control plane (tenants, domains, operators; ADR 033). */
export const control = (): ControlDb => controlDb(dbEnv)
/** Shard 0, where test schools live unless a test places one elsewhere (createTestSchool({ shard })). */
export const db = (): ShardDb => shardDb(dbEnv, 0)
/** Both databases of a request on a shard-0 school, as model functions over both take them (throttles, page settings). */
export const dbs = () => ({ control: control(), db: db() })
const CONTROL_TABLES = new Set(['tenants', 'domains', 'domain_events', 'operators', 'operator_sessions', 'platform_webhooks', 'company_lookups', 'school_moves', 'audit_log', 'operator_recovery_codes', 'operator_invites', 'operator_notes', 'dead_letters', 'school_exports'])
/** The D1 database a table lives in for a test's raw SQL: the control plane, or shard 0 (where test schools live). */
export const d1ForTable = (table: string): D1Database => (CONTROL_TABLES.has(table) ? (env as unknown as { DB: D1Database }).DB : (env as unknown as { DB_SHARD_0: D1Database }).DB_SHARD_0)
/** …of the first table a raw SQL statement names (FROM / INTO / UPDATE). */
export const d1For = (sql: string): D1Database => d1ForTable(/\b(?:from|into|update)\s+[`"]?([a-z_][a-z0-9_]*)/i.exec(sql)?.[1] ?? '')
/** The shard database of a school made by the signup form (placed by size, ADR 033): its tenants.shard. */
export async function shardD1OfSlug(slug: string): Promise<D1Database> {
  const bindings = env as unknown as Record<string, D1Database>
  const row = await bindings.DB!.prepare('SELECT shard FROM tenants WHERE slug = ?').bind(slug).first<{ shard: number }>()
  if (!row) throw new Error(`no school ${slug}`)
  return bindings[`DB_SHARD_${row.shard}`]!
}

/** Each test school's shard, as createTestSchool placed it. */
const shardOfTenant = new Map<string, number>()
/** The shard database of a test school (by id or the school). */
export const dbOf = (school: string | { tenantId: string }): ShardDb => shardDb(dbEnv, shardOfTenant.get(typeof school === 'string' ? school : school.tenantId) ?? 0)

const hashes = new Map<string, Promise<string>>()
function cachedHash(password: string) {
  let h = hashes.get(password)
  if (!h) hashes.set(password, (h = hashPassword(password)))
  return h
}

let counter = 0
export type TestSchool = Awaited<ReturnType<typeof createTestSchool>>

export async function createTestSchool(opts: { slug?: string; name?: string; language?: 'en' | 'pl'; customDomain?: string; customDomainStatus?: DomainStatus; shard?: number } = {}) {
  const slug = opts.slug ?? `school-${Date.now().toString(36)}-${++counter}`
  const owner = { email: `owner@${slug}.test`, password: 'owner-pass-1' }
  const shard = opts.shard ?? 0
  const created = await createSchool(control(), { shard, db: shardDb(dbEnv, shard) }, {
    schoolName: opts.name ?? `School ${slug}`,
    slug,
    language: opts.language ?? 'en',
    currency: 'USD',
    ownerName: 'Owner Person',
    ownerEmail: owner.email,
    ownerPasswordHash: await cachedHash(owner.password),
    platformHost: PLATFORM,
  })
  if (opts.customDomain) {
    const now = Date.now()
    await control().insert(domains).values({ id: newId(), tenantId: created.tenantId, hostname: opts.customDomain, kind: 'custom', verificationStatus: opts.customDomainStatus ?? 'active', createdAt: now, updatedAt: now })
  }
  shardOfTenant.set(created.tenantId, shard)
  return { ...created, slug, shard, host: `${slug}.${PLATFORM}`, owner: { ...owner, id: created.ownerId } }
}

export async function createTestStudent(tenantId: string, opts: { email?: string; password?: string; name?: string } = {}) {
  const email = opts.email ?? `student-${++counter}@example.com`
  const password = opts.password ?? 'student-pass-1'
  const user = await createUser(dbOf(tenantId), tenantId, { email, name: opts.name ?? 'Student Person', passwordHash: await cachedHash(password), role: 'student' })
  if (!user) throw new Error('student exists')
  return { id: user.id, email, password }
}

/** A request to the app worker as a browser on `host` would send it (same-origin for mutations). */
export function appFetch(host: string, path: string, init: RequestInit & { form?: Record<string, string>; cookie?: string; /** Vars over the test env (e.g. a production deployment's). */ vars?: Record<string, string> } = {}) {
  const url = `http://${host}${path}`
  const headers = new Headers(init.headers)
  if (init.cookie) headers.set('Cookie', init.cookie)
  let body = init.body
  if (init.form) {
    body = new URLSearchParams(init.form).toString()
    headers.set('Content-Type', 'application/x-www-form-urlencoded')
  }
  const method = init.method ?? (init.form ? 'POST' : 'GET')
  if (method !== 'GET' && !headers.has('Sec-Fetch-Site')) headers.set('Sec-Fetch-Site', 'same-origin')
  const { vars, form: _form, cookie: _cookie, ...requestInit } = init
  return appWorker().then((worker) => worker.fetch(new Request(url, { ...requestInit, method, headers, body, redirect: 'manual' }), vars ? { ...env, ...vars } : env, createExecutionContext()))
}

type AppWorker = { fetch(request: Request, env: unknown, ctx: ExecutionContext): Promise<Response> }
let appWorkerModule: Promise<AppWorker> | null = null
/**
 * The app worker's module (the same instance the pool loads as `main`), called directly in this
 * isolate. Not through `exports.default.fetch`: under vitest-pool-workers every call through that
 * loopback makes the next one slower (≈ 2 ms → 75 ms after 1,000 calls; ADR 022). Imported on
 * first use, so tiers without the app bundle (tests/tiers.ts) never evaluate it.
 */
function appWorker() {
  appWorkerModule ??= import('../server.ts').then((m) => m.default as unknown as AppWorker)
  return appWorkerModule
}

/** Log in through the real login form; returns the Cookie header value. */
export async function login(host: string, email: string, password: string) {
  const res = await appFetch(host, '/login', { form: { email, password } })
  const setCookie = res.headers.get('Set-Cookie')
  if (res.status !== 302 || !setCookie) throw new Error(`login failed: ${res.status}`)
  return setCookie.split(';')[0]
}

/** The one-time message a redirect left (app/utils/flash.server.ts), decoded; null without one. */
export function flashOf(res: Response): Flash | null {
  for (const cookie of res.headers.getSetCookie()) {
    const match = /^(?:__Host-)?cf_flash=([^;]*)/.exec(cookie)
    if (match?.[1]) return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(decodeURIComponent(match[1])), (c) => c.charCodeAt(0)))) as Flash
  }
  return null
}

/** The Cookie header that follows `res`'s redirect as a browser would: `cookie` plus the flash it left. */
export function followFlash(cookie: string, res: Response) {
  const flash = res.headers.getSetCookie().find((c) => /^(?:__Host-)?cf_flash=/.test(c))
  return flash ? `${cookie}; ${flash.split(';')[0]}` : cookie
}

/**
 * A GET to the app worker as appFetch sends it, then the work the answer left behind is awaited
 * (ctx.waitUntil: e.g. the page cache's write to the Cache API), so the next request finds it.
 */
export async function appFetchSettled(host: string, path: string, init: { headers?: HeadersInit; vars?: Record<string, string> } = {}) {
  const ctx = createExecutionContext()
  const worker = await appWorker()
  const res = await worker.fetch(new Request(`http://${host}${path}`, { headers: init.headers, redirect: 'manual' }), init.vars ? { ...env, ...init.vars } : env, ctx)
  const body = await res.text()
  const { waitOnExecutionContext } = await import('cloudflare:test')
  await waitOnExecutionContext(ctx)
  return { res, body }
}

/**
 * A platform operator with the second factor enrolled, signed in through the real forms (password,
 * then a TOTP code): returns the Cookie header value, and `code()` for the next sign-in's code.
 */
export async function createTestOperator(opts: { id?: string; email?: string; name?: string; role?: OperatorRole; password?: string } = {}) {
  const email = (opts.email ?? `op-${newId(6)}@coursefront.test`).toLowerCase()
  const password = opts.password ?? 'operator-pass'
  const id = opts.id ?? newId()
  const key = newTotpKey()
  const platformKey = (env as unknown as { INTEGRATIONS_KEY: string }).INTEGRATIONS_KEY
  const now = Date.now()
  await control()
    .insert(operators)
    .values({ id, email, name: opts.name ?? 'Test Operator', role: opts.role ?? 'admin', passwordHash: await hashPassword(password), totpKey: await sealTotpKey(platformKey, key), totpEnabledAt: now, createdAt: now, updatedAt: now })
  const cookie = await signInTestOperator(email, password, key)
  return { id, email, password, key, cookie }
}

/** Password, then the TOTP code of the current step: the operator's Cookie header value. */
export async function signInTestOperator(email: string, password: string, key: Uint8Array, headers?: HeadersInit) {
  const first = await appFetch(PLATFORM, '/operator/login', { form: { email, password }, headers })
  const cookie = first.headers.get('Set-Cookie')?.split(';')[0]
  if (first.status !== 302 || !cookie) throw new Error(`operator login failed: ${first.status}`)
  const second = await appFetch(PLATFORM, '/operator/two-factor', { form: { code: generateTOTP(key, 30, 6) }, cookie, headers })
  if (second.status !== 302 || second.headers.get('Location') !== '/operator') throw new Error(`operator second factor failed: ${second.status}`)
  return cookie
}
