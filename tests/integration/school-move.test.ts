// Issue 26 acceptance through the running app: an operator moves a school to the other shard; while
// it moves, its pages still answer and every write gets the "changes are paused" page in the
// school's language; afterwards every row is on the new shard and its students keep their sessions.
// The move's own correctness (counts, checksums, killed at every batch) is app/shards/move-school.server.test.ts.
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createProduct } from '#app/models/product.server.ts'
import { appFetch, createTestSchool, createTestStudent, dbOf, login, createTestOperator } from '#tests/factories.ts'

const PLATFORM = 'localhost:8787'
const bindings = env as unknown as { DB: D1Database; DB_SHARD_0: D1Database; DB_SHARD_1: D1Database }
const shardD1 = (shard: number) => (shard === 0 ? bindings.DB_SHARD_0 : bindings.DB_SHARD_1)
// A one-isolate test has no other tenant caches to wait for (SHARD_MOVE_SETTLE_MS, ADR 033).
const NO_SETTLE = { SHARD_MOVE_SETTLE_MS: '0' }

/** One operator per file, signed in once (a TOTP code works once per step). */
let operatorSignedIn: Promise<string> | null = null
function operatorCookie() {
  operatorSignedIn ??= createTestOperator({ id: 'op-move', email: 'move-op@coursefront.test', name: 'Move Op' }).then((o) => o.cookie)
  return operatorSignedIn
}

const rowsOf = async (shard: number, tenantId: string) => {
  const counts: Record<string, number> = {}
  for (const table of ['users', 'sessions', 'products', 'school_settings']) counts[table] = (await shardD1(shard).prepare(`SELECT count(*) AS n FROM ${table} WHERE tenant_id = ?`).bind(tenantId).first<{ n: number }>())!.n
  return counts
}
const moveOf = (tenantId: string) => bindings.DB.prepare('SELECT phase, error FROM school_moves WHERE tenant_id = ? ORDER BY started_at DESC LIMIT 1').bind(tenantId).first<{ phase: string; error: string | null }>()

describe('moving a school to another shard (operator console)', () => {
  it('pauses writes with a clear page, keeps reads, then serves every row and session from the new shard', async () => {
    const school = await createTestSchool({ language: 'pl', shard: 0 })
    const student = await createTestStudent(school.tenantId, { name: 'Ola Uczennica' })
    const studentCookie = await login(school.host, student.email, student.password)
    const course = await createProduct(dbOf(school), school.tenantId, { kind: 'course', title: 'Kurs do przeniesienia', published: true })
    const before = await rowsOf(0, school.tenantId)
    const operator = await operatorCookie()

    // The school page links to the move; the move page offers shard 1 only.
    expect(await (await appFetch(PLATFORM, `/operator/schools/${school.tenantId}`, { cookie: operator })).text()).toContain(`/operator/schools/${school.tenantId}/move`)
    const form = await (await appFetch(PLATFORM, `/operator/schools/${school.tenantId}/move`, { cookie: operator })).text()
    expect(form).toMatch(/<option value="1"/)
    expect(form).not.toMatch(/<option value="0"/)

    // Started (the school frozen), the cron not yet run: the move waits for other isolates' caches.
    const started = await appFetch(PLATFORM, `/operator/schools/${school.tenantId}/move`, { cookie: operator, form: { intent: 'start', toShard: '1' } })
    expect(started.status).toBe(302)
    expect((await bindings.DB.prepare('SELECT moving_since FROM tenants WHERE id = ?').bind(school.tenantId).first<{ moving_since: number | null }>())!.moving_since).not.toBeNull()

    // Reads go on; a write gets the paused page in Polish (503, Retry-After) and writes nothing.
    const page = await appFetch(school.host, '/', { cookie: studentCookie })
    expect(page.status).toBe(200)
    const paused = await appFetch(school.host, '/account', { form: { intent: 'name', name: 'Zmienione' }, cookie: studentCookie })
    expect(paused.status).toBe(503)
    expect(paused.headers.get('Retry-After')).toBe('120')
    expect(await paused.text()).toContain('Zmiany są wstrzymane na kilka minut')
    expect((await shardD1(0).prepare('SELECT name FROM users WHERE id = ?').bind(student.id).first<{ name: string }>())!.name).toBe('Ola Uczennica')

    // The operator advances it to the end (as the cron would), here without the settle wait.
    for (let step = 0; step < 20 && (await moveOf(school.tenantId))!.phase !== 'done'; step++) {
      const advanced = await appFetch(PLATFORM, `/operator/schools/${school.tenantId}/move`, { cookie: operator, form: { intent: 'advance' }, vars: NO_SETTLE })
      expect(advanced.status).toBe(302)
    }
    expect(await moveOf(school.tenantId)).toEqual({ phase: 'done', error: null })
    expect((await bindings.DB.prepare('SELECT shard, moving_since FROM tenants WHERE id = ?').bind(school.tenantId).first())!).toEqual({ shard: 1, moving_since: null })
    expect(await rowsOf(1, school.tenantId)).toEqual(before)
    expect(await rowsOf(0, school.tenantId)).toEqual({ users: 0, sessions: 0, products: 0, school_settings: 0 })

    // The student is still signed in, on the new shard, and can write again.
    // (/panel sends a visitor to /login: 200 means the session was found on shard 1.)
    expect((await appFetch(school.host, '/panel', { cookie: studentCookie })).status).toBe(200)
    const coursePage = await appFetch(school.host, `/${course.slug}`, { cookie: studentCookie })
    expect(coursePage.status).toBe(200)
    expect(await coursePage.text()).toContain('Kurs do przeniesienia')
    expect((await appFetch(school.host, '/account', { form: { intent: 'name', name: 'Ola Przeniesiona' }, cookie: studentCookie })).status).toBe(302)
    expect((await shardD1(1).prepare('SELECT name FROM users WHERE id = ?').bind(student.id).first<{ name: string }>())!.name).toBe('Ola Przeniesiona')
  })

  it('refuses a move to the shard the school is on, or to one that does not exist, with a message and nothing written', async () => {
    const school = await createTestSchool({ shard: 1 })
    const operator = await operatorCookie()
    for (const toShard of ['1', '7']) {
      const res = await appFetch(PLATFORM, `/operator/schools/${school.tenantId}/move`, { cookie: operator, form: { intent: 'start', toShard } })
      expect(res.status).toBe(400)
    }
    expect(await moveOf(school.tenantId)).toBeNull()
    expect((await bindings.DB.prepare('SELECT moving_since FROM tenants WHERE id = ?').bind(school.tenantId).first<{ moving_since: number | null }>())!.moving_since).toBeNull()
  })
})
