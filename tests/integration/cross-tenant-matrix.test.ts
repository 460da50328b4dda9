import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { authTokens } from '#app/db/schema.server.ts'
import { buildAuthToken, createAuthToken } from '#app/models/auth-token.server.ts'
import { enqueueEmail } from '#app/models/email-outbox.server.ts'
import { insertPendingMediaObject, markMediaObjectReady } from '#app/models/media.server.ts'
import { objectKey } from '#app/domain/upload-policy.ts'
import { attachProductFile } from '#app/models/product-file.server.ts'
import { createFileProduct } from '#app/models/product.server.ts'
import { insertVideo } from '#app/models/video.server.ts'
import { appFetch, createTestSchool, createTestStudent, dbOf, login, type TestSchool } from '#tests/factories.ts'
import { AREAS, ID_ROUTES, type VictimObjects } from './cross-tenant-routes.ts'

// Route modules, by file name, as Remix's flat-routes convention names them.
const routeFiles = Object.keys(import.meta.glob('/app/routes/*.tsx')).map((p) => p.replace(/^.*\/routes\//, '').replace(/\.tsx$/, ''))

/** The URL of a parameterless flat-route file: `home_.products._index` → `/home/products`. */
function routePath(file: string) {
  return (
    '/' +
    file
      .split('.')
      .filter((segment) => segment !== '_index')
      .map((segment) => segment.replace(/^_|_$/g, ''))
      .join('/')
  )
}

/** Probe paths are only inspected (do they start with /home?) before the real objects exist. */
const objectsPlaceholder = new Proxy({}, { get: () => 'x' }) as VictimObjects

// Schools on two shards (ADR 033): the victim on shard 1; one attacking school beside it on the
// same shard (only tenant scoping stands between them) and one on shard 0 (routing by host must
// never reach the victim's shard). Each probe runs from both: the near school by its subdomain,
// the far one by its custom domain.
let victim: TestSchool
let near: TestSchool
let far: TestSchool
let objects: VictimObjects
let victimStudentCookie: string
let victimOwnerCookie: string
const identities: Record<'near' | 'far', Record<string, string | undefined>> = { near: {}, far: {} }

async function longLivedHandoverToken(tenantId: string, userId: string) {
  const { token, row } = buildAuthToken(tenantId, userId, 'login_handover', Date.now() + 10 * 60 * 1000)
  await dbOf(tenantId).insert(authTokens).values(row)
  return token
}

beforeAll(async () => {
  victim = await createTestSchool({ slug: 'victim-school', customDomain: 'victim.test', shard: 1 })
  near = await createTestSchool({ slug: 'attacker-school', shard: 1 })
  far = await createTestSchool({ slug: 'far-attacker-school', customDomain: 'attacker.test', shard: 0 })
  const victimStudent = await createTestStudent(victim.tenantId, { email: 'same@example.com' })

  victimStudentCookie = await login(victim.host, victimStudent.email, victimStudent.password)
  victimOwnerCookie = await login(victim.host, victim.owner.email, victim.owner.password)
  for (const [side, attacker] of [['near', near], ['far', far]] as const) {
    // Same email in the attacking school, a different account.
    const attackerStudent = await createTestStudent(attacker.tenantId, { email: 'same@example.com', password: 'other-pass-1' })
    identities[side].owner = await login(attacker.host, attacker.owner.email, attacker.owner.password)
    identities[side].student = await login(attacker.host, attackerStudent.email, attackerStudent.password)
    identities[side].anonymous = undefined
  }

  // A file product with one ready file, and a video, of the victim school.
  const product = await createFileProduct(dbOf(victim), victim.tenantId, { title: 'Victim workbook' })
  const key = objectKey(victim.tenantId, 'file_product', 'pdf')
  await insertPendingMediaObject(dbOf(victim), victim.tenantId, { key, context: 'file_product', kind: 'pdf', originalFilename: 'workbook.pdf', contentType: 'application/pdf', size: 100 })
  await markMediaObjectReady(dbOf(victim), victim.tenantId, key, { contentType: 'application/pdf', size: 100, kind: 'pdf' })
  const file = await attachProductFile(dbOf(victim), victim.tenantId, product.id, key)
  const video = await insertVideo(dbOf(victim), victim.tenantId, { libraryId: '424242', bunnyVideoId: '0b9c1c6e-4a52-4d4b-9a47-3f8c3a1c2d10', title: 'Victim lesson', originalFilename: 'lesson.mp4', size: 1000 })

  objects = {
    tenantId: victim.tenantId,
    productId: product.id,
    fileId: file!.id,
    videoId: video.id,
    studentSessionId: victimStudentCookie.split('=')[1].split('.')[0],
    resetToken: await createAuthToken(dbOf(victim), victim.tenantId, victimStudent.id, 'password_reset'),
    // Hand-over tokens live 60 s; the matrix runs longer, so this one is minted to outlive it.
    handoverToken: await longLivedHandoverToken(victim.tenantId, victim.owner.id),
    domainId: (await env.DB.prepare("SELECT id FROM domains WHERE hostname = 'victim.test'").first<{ id: string }>())!.id,
    mailId: await enqueueEmail(dbOf(victim), undefined, victim.tenantId, { template: 'test', to: victimStudent.email, subject: 'Private', text: 'secret', html: '<p>secret</p>' }),
  }
  for (const area of AREAS) Object.assign(objects, await area.victims({ tenantId: victim.tenantId, ownerId: victim.owner.id, studentId: victimStudent.id }))
})

describe('cross-tenant matrix', () => {
  it('runs with the schools on two shards, as the control plane records them', async () => {
    const shardOf = async (school: TestSchool) => (await env.DB.prepare('SELECT shard FROM tenants WHERE id = ?').bind(school.tenantId).first<{ shard: number }>())!.shard
    expect([await shardOf(victim), await shardOf(near), await shardOf(far)]).toEqual([1, 1, 0])
    // The victim's rows are in its shard only.
    const sessions = (d1: D1Database) => d1.prepare('SELECT count(*) AS n FROM sessions WHERE tenant_id = ?').bind(victim.tenantId).first<{ n: number }>()
    expect((await sessions(env.DB_SHARD_1))!.n).toBeGreaterThan(0)
    expect((await sessions(env.DB_SHARD_0))!.n).toBe(0)
  })

  it('registers every route file that takes an id', () => {
    const idRoutes = routeFiles.filter((name) => name.includes('$'))
    expect(idRoutes.length).toBeGreaterThan(0)
    expect(idRoutes.filter((name) => !(name in ID_ROUTES))).toEqual([])
    // And the registry names no route that does not exist.
    expect(Object.keys(ID_ROUTES).filter((name) => !routeFiles.includes(name))).toEqual([])
  })

  for (const [route, probes] of Object.entries(ID_ROUTES)) {
    for (const probe of probes) {
      for (const who of ['owner', 'student', 'anonymous']) {
        for (const side of ['near', 'far'] as const) {
          const via = side === 'near' ? 'same shard, subdomain' : 'other shard, custom domain'
          it(`${probe.method} ${route} as ${who} of another school (${via}) → 404`, async () => {
            const host = side === 'near' ? near.host : 'attacker.test'
            const res = await appFetch(host, probe.path(objects), { method: probe.method, form: probe.form, cookie: identities[side][who] })
            expect(res.status).toBe(404)
          })
        }
      }
    }
  }

  // Issue 5: a student gets 404 on every /home route of their own school — pages and the ids of
  // their own school's objects alike (GET and POST).
  const homeRoutes = routeFiles.filter((name) => name === 'home' || name.startsWith('home.') || name.startsWith('home_.'))
  it('knows every /home route file', () => {
    expect(homeRoutes.length).toBeGreaterThan(20)
  })
  for (const route of homeRoutes) {
    const probes: Array<{ method: 'GET' | 'POST'; path: (v: VictimObjects) => string; form?: Record<string, string> }> =
      route in ID_ROUTES
        ? ID_ROUTES[route].filter((p) => p.path(objectsPlaceholder).startsWith('/home'))
        : [
            { method: 'GET', path: () => routePath(route) },
            { method: 'POST', path: () => routePath(route), form: { intent: 'probe' } },
          ]
    for (const probe of probes) {
      it(`${probe.method} ${route} as a student of the same school → 404`, async () => {
        const res = await appFetch(victim.host, probe.path(objects), { method: probe.method, form: probe.form, cookie: victimStudentCookie })
        // A page without an action answers every POST 405, whoever sends it: nothing to learn there.
        if (probe.method === 'POST' && res.status === 405) {
          const asOwner = await appFetch(victim.host, probe.path(objects), { method: 'POST', form: probe.form, cookie: victimOwnerCookie })
          expect(asOwner.status).toBe(405)
          return
        }
        expect(res.status).toBe(404)
      })
    }
  }

  // Issue 27: the operator console never answers on a school's host — not to its owner, its
  // students or a visitor — whatever the route (every operator route file, its ids filled in with
  // the school's own), GET and POST alike. A page without an action answers POST 405 to anyone.
  const operatorRoutes = routeFiles.filter((name) => name === 'operator' || name.startsWith('operator.') || name.startsWith('operator_.'))
  it('knows every operator route file', () => {
    expect(operatorRoutes.length).toBeGreaterThan(15)
  })
  for (const route of operatorRoutes) {
    for (const method of ['GET', 'POST'] as const) {
      it(`${method} ${route} on a school's host (owner, student, visitor) → 404`, async () => {
        const path = routePath(route).replace(/\$(\w+)/g, (_, name: string) => (name === 'tenantId' ? objects.tenantId : 'probe'))
        for (const cookie of [victimOwnerCookie, victimStudentCookie, undefined]) {
          const res = await appFetch(victim.host, path, { method, form: method === 'POST' ? { intent: 'suspend' } : undefined, cookie })
          expect({ path, status: res.status }).toEqual({ path, status: method === 'POST' && res.status === 405 ? 405 : 404 })
        }
      })
    }
  }

  it('left every victim object untouched', async () => {
    const session = await env.DB_SHARD_1.prepare('SELECT id FROM sessions WHERE id = ?').bind(objects.studentSessionId).first()
    expect(session).not.toBeNull()
    const tenant = await env.DB.prepare('SELECT status FROM tenants WHERE id = ?').bind(victim.tenantId).first<{ status: string }>()
    expect(tenant?.status).toBe('active')
    const domain = await env.DB.prepare('SELECT is_primary, verification_status FROM domains WHERE id = ?').bind(objects.domainId).first<{ is_primary: number; verification_status: string }>()
    expect(domain).toEqual({ is_primary: 0, verification_status: 'active' })
    const tokens = await env.DB_SHARD_1.prepare('SELECT count(*) AS n FROM auth_tokens WHERE tenant_id = ? AND used_at IS NOT NULL').bind(victim.tenantId).first<{ n: number }>()
    expect(tokens?.n).toBe(0)
  })

  // One request per control route (~150), so more time than one test usually needs on 2 shared cores.
  it('serves the same objects to their rightful owner (controls)', { timeout: 180_000 }, async () => {
    for (const [route, probes] of Object.entries(ID_ROUTES)) {
      for (const probe of probes) {
        if (!probe.control) continue
        const res = await appFetch(victim.host, probe.path(objects), { method: probe.method, form: probe.form })
        expect(res.status, `${probe.method} ${route}`).toBe(probe.control.status)
      }
    }
    const revoke = await appFetch(victim.host, `/panel/sessions/${objects.studentSessionId}`, { method: 'POST', cookie: victimStudentCookie })
    expect(revoke.status).toBe(302)
    const handover = await appFetch(victim.host, `/auth/handover?token=${objects.handoverToken}`)
    expect(handover.status).toBe(302)
    expect(handover.headers.get('Set-Cookie')).toMatch(/cf_session=/)
  })
})
