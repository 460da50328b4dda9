// Issue 21 item 4: a signed-in course page costs one D1 round trip once the tenant is resolved —
// the session lookup and the page's reads in one db.batch, the school's login-verification mode
// from the cached tenant — with the same sessions, verification gate and sliding expiry.
import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { grantProductAccess } from '#app/models/access.server.ts'
import { createLecture, createSection } from '#app/models/course-content.server.ts'
import { bumpContentVersion } from '#app/models/content-version.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { SESSION_REFRESH_INTERVAL_MS } from '#app/utils/session-token.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, login, type TestSchool } from '#tests/factories.ts'

/** The D1 binding wrapped to count round trips (each statement run alone, each batch) and statements. */
function countingD1(d1: D1Database) {
  const counter = { trips: 0, statements: 0 }
  const wrapStatement = (stmt: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(stmt, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target)
        if (prop === 'bind') return (...args: unknown[]) => wrapStatement((value as (...a: unknown[]) => D1PreparedStatement).apply(target, args))
        if (['first', 'all', 'raw', 'run'].includes(String(prop))) {
          return (...args: unknown[]) => {
            counter.trips++
            counter.statements++
            return (value as (...a: unknown[]) => unknown).apply(target, args)
          }
        }
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
  // A request reads its shard through one D1 session (read replicas, ADR 033): counted the same.
  const wrap = <T extends D1Database | D1DatabaseSession>(d1: T): T => new Proxy(d1, {
    get(target, prop) {
      if (prop === 'withSession') return (constraint?: string) => wrap((target as D1Database).withSession(constraint))
      if (prop === 'prepare') return (sql: string) => wrapStatement(target.prepare(sql))
      if (prop === 'batch') {
        return (stmts: D1PreparedStatement[]) => {
          counter.trips++
          counter.statements += stmts.length
          return target.batch(stmts)
        }
      }
      const value = Reflect.get(target, prop, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  return { d1: wrap(d1), counter }
}

/** GET `path` with the counting binding; the tenant is already in the isolate's cache (warmed by login). */
async function counted(school: TestSchool, path: string, cookie?: string) {
  // The school is on shard 0; the control plane (tenant resolution) is already cached.
  const { d1, counter } = countingD1(env.DB_SHARD_0)
  const res = await appFetch(school.host, path, { cookie, vars: { DB_SHARD_0: d1 } as unknown as Record<string, string> })
  return { res, body: await res.text(), ...counter }
}

const sessionIdOf = (cookie: string) => decodeURIComponent(cookie.split('=')[1]!).split('.')[0]!

let school: TestSchool
let course: { id: string; slug: string }
let buyer: string
let stranger: string
let owner: string
let lectureId: string

beforeAll(async () => {
  school = await createTestSchool()
  course = await createProduct(db(), school.tenantId, { kind: 'course', title: 'Counted course', published: true })
  const section = (await createSection(db(), school.tenantId, course.id, 'Basics'))!
  const made = await createLecture(db(), school.tenantId, course.id, section.id, { title: 'First', kind: 'text', body: 'Hello', published: true })
  if (!made || !made.ok) throw new Error('lecture')
  lectureId = made.lecture.id
  const b = await createTestStudent(school.tenantId)
  await grantProductAccess(db(), school.tenantId, { productId: course.id, userId: b.id, source: 'purchase' })
  buyer = await login(school.host, b.email, b.password)
  const s = await createTestStudent(school.tenantId)
  stranger = await login(school.host, s.email, s.password)
  owner = await login(school.host, school.owner.email, school.owner.password)
})

describe('signed-in course page: one D1 round trip', () => {
  it('a student with access, one without, and the owner each cost one round trip, with the right offer', async () => {
    const withAccess = await counted(school, `/${course.slug}`, buyer)
    expect(withAccess.res.status).toBe(200)
    expect(withAccess.body).toContain(`/${course.slug}/watch`)
    expect(withAccess.trips).toBe(1)

    const without = await counted(school, `/${course.slug}`, stranger)
    expect(without.res.status).toBe(200)
    expect(without.body).toContain(`/${course.slug}/checkout`)
    expect(without.body).not.toContain(`/${course.slug}/watch`)
    expect(without.trips).toBe(1)

    const staff = await counted(school, `/${course.slug}`, owner)
    expect(staff.body).toContain(`/${course.slug}/watch`)
    expect(staff.trips).toBe(1)
  })

  it('the player reads the course, access, progress and curriculum in the session batch: /{slug}/watch is one round trip', async () => {
    const go = await counted(school, `/${course.slug}/watch`, buyer)
    expect(go.res.status).toBe(302)
    expect(go.res.headers.get('Location')).toBe(`/${course.slug}/watch/${lectureId}`)
    expect(go.trips).toBe(1)
    // A student without access is sent to the no-access page of the same lecture, one round trip too.
    const none = await counted(school, `/${course.slug}/watch`, stranger)
    expect(none.res.headers.get('Location')).toBe(`/${course.slug}/watch/${lectureId}`)
    expect(none.trips).toBe(1)
    const page = await counted(school, `/${course.slug}/watch/${lectureId}`, buyer)
    expect(page.res.status).toBe(200)
    expect(page.body).toContain('data-lecture-body')
    const blocked = await counted(school, `/${course.slug}/watch/${lectureId}`, stranger)
    expect(blocked.res.status).toBe(403)
    expect(blocked.trips).toBe(2) // + the offer of the no-access page
  })

  it('the counter counts: a statement run alone is a round trip of its own', async () => {
    const { d1, counter } = countingD1(env.DB)
    await d1.prepare('SELECT 1').first()
    await d1.batch([d1.prepare('SELECT 1'), d1.prepare('SELECT 2')])
    expect(counter).toEqual({ trips: 2, statements: 3 })
  })

  it('a cookie that is not a valid session gets the visitor page (and no access rows of that session)', async () => {
    const [name, value] = buyer.split('=') as [string, string]
    const [id] = decodeURIComponent(value).split('.')
    const forged = `${name}=${encodeURIComponent(`${id}.${'a'.repeat(32)}`)}`
    const page = await counted(school, `/${course.slug}`, forged)
    expect(page.res.status).toBe(200)
    expect(page.body).toContain(`/${course.slug}/checkout`)
    expect(page.body).not.toContain(`/${course.slug}/watch`)
    expect(page.trips).toBeLessThanOrEqual(1)
  })

  it('sliding expiry still refreshes a session once its hour is up (the refresh is the one extra write)', async () => {
    const id = sessionIdOf(stranger)
    const old = Date.now() - SESSION_REFRESH_INTERVAL_MS - 1_000
    await env.DB_SHARD_0.prepare('UPDATE sessions SET last_verified_at = ? WHERE id = ?').bind(old, id).run()
    const page = await counted(school, `/${course.slug}`, stranger)
    expect(page.res.status).toBe(200)
    expect(page.trips).toBe(2)
    const row = await env.DB_SHARD_0.prepare('SELECT last_verified_at AS at FROM sessions WHERE id = ?').bind(id).first<{ at: number }>()
    expect(row!.at).toBeGreaterThan(old)
    expect((await counted(school, `/${course.slug}`, stranger)).trips).toBe(1)
  })
})

describe("signed-in course page from the visitors' data kept per isolate", () => {
  it('reads only the content version and the access in the session batch, and confirms the data against that version', async () => {
    const kept = await createProduct(db(), school.tenantId, { kind: 'course', title: 'Kept course', published: true })
    const section = (await createSection(db(), school.tenantId, kept.id, 'Part one'))!
    await createLecture(db(), school.tenantId, kept.id, section.id, { title: 'Opening', kind: 'text', body: 'Hi', published: true })
    const b = await createTestStudent(school.tenantId)
    await grantProductAccess(db(), school.tenantId, { productId: kept.id, userId: b.id, source: 'purchase' })
    const holder = await login(school.host, b.email, b.password)

    // A visitor's render keeps the page's data for the school's content version.
    const visitor = await appFetch(school.host, `/${kept.slug}`)
    expect(await visitor.text()).toContain('Kept course')

    // Signed in: one round trip of 3 statements (session, version, access) instead of the page's 8.
    const own = await counted(school, `/${kept.slug}`, holder)
    expect(own.res.status).toBe(200)
    expect(own.body).toContain(`/${kept.slug}/watch`)
    expect(own.body).toContain('Opening')
    expect([own.trips, own.statements]).toEqual([1, 3])
    const other = await counted(school, `/${kept.slug}`, stranger)
    expect(other.body).toContain(`/${kept.slug}/checkout`)
    expect(other.body).not.toContain(`/${kept.slug}/watch`)
    expect([other.trips, other.statements]).toEqual([1, 3])
    expect((await counted(school, `/${kept.slug}`, owner)).body).toContain(`/${kept.slug}/watch`)

    // The data really is the kept one: a write behind the models' back (no version bump) is not seen...
    await env.DB_SHARD_0.prepare('UPDATE products SET title = ? WHERE id = ?').bind('Kept course (renamed)', kept.id).run()
    expect((await counted(school, `/${kept.slug}`, holder)).body).not.toContain('Kept course (renamed)')
    // ...until the version moves: the batch's version no longer matches, so the page is read again (a second round trip, once).
    await bumpContentVersion(db(), school.tenantId)
    const after = await counted(school, `/${kept.slug}`, holder)
    expect(after.body).toContain('Kept course (renamed)')
    expect(after.body).toContain(`/${kept.slug}/watch`)
    expect(after.trips).toBe(2)
    expect((await counted(school, `/${kept.slug}`, holder)).trips).toBe(1)

    // An edit through /home in this isolate hands its new version over: the next signed-in page reads it all in one round trip.
    const edit = await appFetch(school.host, `/home/products/${kept.id}`, { form: { intent: 'unpublish' }, cookie: owner })
    expect(edit.status).toBeLessThan(400)
    const unpublished = await counted(school, `/${kept.slug}`, holder)
    expect(unpublished.res.status).toBe(404)
    expect(unpublished.trips).toBe(1)
  })
})

describe('login verification from the cached tenant', () => {
  const settingsForm = (loginVerification: string) => ({
    avatarPath: '',
    coverPath: '',
    name: 'Counted School',
    language: 'en',
    template: 'classic',
    authorName: '',
    bio: '',
    contactEmail: '',
    customJs: '',
    conversionCode: '',
    loginVerification,
  })

  it('follows the setting as soon as the owner saves it, and an unverified student sees the visitor page in one round trip', async () => {
    const s = await createTestStudent(school.tenantId)
    const student = await login(school.host, s.email, s.password)
    expect((await appFetch(school.host, '/panel', { cookie: student })).status).toBe(200)

    expect((await appFetch(school.host, '/home/settings/page', { form: settingsForm('email'), cookie: owner })).status).toBe(302)
    const gated = await appFetch(school.host, '/panel', { cookie: student })
    expect(gated.status).toBe(302)
    expect(gated.headers.get('Location')).toBe('/verify')
    const page = await counted(school, `/${course.slug}`, student)
    expect(page.res.status).toBe(200)
    expect(page.body).toContain(`/${course.slug}/checkout`)
    expect(page.trips).toBe(1)
    // Staff are never asked.
    expect((await counted(school, `/${course.slug}`, owner)).body).toContain(`/${course.slug}/watch`)

    expect((await appFetch(school.host, '/home/settings/page', { form: settingsForm('off'), cookie: owner })).status).toBe(302)
    expect((await appFetch(school.host, '/panel', { cookie: student })).status).toBe(200)
  })
})
