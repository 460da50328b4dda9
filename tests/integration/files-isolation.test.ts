// Private files across schools: every id of the victim school (product, file, stored key, student)
// used from another school is 404 for its owner, its students and anonymous visitors, and nothing
// of the victim's changes. Also replays the registry's probes (cross-tenant-routes.ts) for the
// files routes with real victim ids, which the generic matrix does not create.
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import type { FileInitiateBody } from '#app/media/files-contract.ts'
import { bytes } from '#tests/bytes.ts'
import { appFetch, createTestSchool, createTestStudent, login, type TestSchool } from '#tests/factories.ts'
import { ID_ROUTES, type VictimObjects } from './cross-tenant-routes.ts'

const PDF = bytes('%PDF-1.4\n', new Uint8Array(200).fill(0x20), '\n%%EOF\n')

function postJson(host: string, path: string, body: unknown, cookie?: string) {
  return appFetch(host, path, { method: 'POST', cookie, headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(body) })
}

async function createProduct(school: TestSchool, cookie: string, title: string) {
  const res = await appFetch(school.host, '/home/files', { form: { title }, cookie })
  expect(res.status).toBe(302)
  return /\/home\/files\/([a-z2-7]+)/.exec(res.headers.get('Location')!)![1]
}

async function upload(school: TestSchool, cookie: string, productId: string) {
  const endpoint = `/home/files/${productId}/uploads`
  const init = (await (await postJson(school.host, endpoint, { step: 'create', filename: 'secret.pdf', extension: 'pdf', size: PDF.length, contentType: 'application/pdf' }, cookie)).json()) as FileInitiateBody
  const url = new URL(init.uploadUrl)
  expect((await appFetch(url.host, url.pathname + url.search, { method: 'PUT', headers: init.headers, body: PDF as unknown as BodyInit })).status).toBe(200)
  const done = (await (await postJson(school.host, endpoint, { step: 'complete', path: init.path }, cookie)).json()) as { file: { id: string } }
  return { key: init.path, fileId: done.file.id }
}

let victim: TestSchool
let attacker: TestSchool
let victimOwner: string
let victimStudent: { id: string; cookie: string }
let victimProduct: string
let victimFile: { key: string; fileId: string }
let attackerProduct: string
let attackerFile: { key: string; fileId: string }
const who: Record<'owner' | 'student' | 'anonymous' | 'victim cookie', string | undefined> = { owner: undefined, student: undefined, anonymous: undefined, 'victim cookie': undefined }

beforeAll(async () => {
  victim = await createTestSchool()
  attacker = await createTestSchool()
  victimOwner = await login(victim.host, victim.owner.email, victim.owner.password)
  const vs = await createTestStudent(victim.tenantId, { email: 'same@example.com' })
  victimStudent = { id: vs.id, cookie: await login(victim.host, vs.email, vs.password) }
  const as = await createTestStudent(attacker.tenantId, { email: 'same@example.com', password: 'other-pass-1' })
  who.owner = await login(attacker.host, attacker.owner.email, attacker.owner.password)
  who.student = await login(attacker.host, as.email, as.password)
  who['victim cookie'] = victimOwner // cookies are host-only: on the attacker's host it is nobody

  victimProduct = await createProduct(victim, victimOwner, 'Victim pack')
  victimFile = await upload(victim, victimOwner, victimProduct)
  expect((await appFetch(victim.host, `/home/files/${victimProduct}`, { form: { intent: 'grant', email: 'same@example.com' }, cookie: victimOwner })).status).toBe(302)
  attackerProduct = await createProduct(attacker, who.owner, 'Attacker pack')
  attackerFile = await upload(attacker, who.owner, attackerProduct)
  // The attacker's student has access to the attacker's product: access is per product and school.
  expect((await appFetch(attacker.host, `/home/files/${attackerProduct}`, { form: { intent: 'grant', email: 'same@example.com' }, cookie: who.owner })).status).toBe(302)
})

const identities = Object.keys(who) as (keyof typeof who)[]

describe('registry probes with real victim ids', () => {
  const routes = ['home_.files_.$productId', 'home_.files_.$productId_.uploads', 'files.$productId.$fileId'] as const
  it('are registered', () => {
    for (const route of routes) expect(ID_ROUTES[route]?.length, route).toBeGreaterThan(0)
  })
  for (const route of routes) {
    it(`${route}: 404 from the other school, for everyone`, async () => {
      const objects = { tenantId: victim.tenantId, productId: victimProduct, fileId: victimFile.fileId } as VictimObjects
      for (const probe of ID_ROUTES[route]) {
        for (const identity of identities) {
          const res = await appFetch(attacker.host, probe.path(objects), { method: probe.method, form: probe.form, cookie: who[identity] })
          expect(res.status, `${probe.method} ${probe.path(objects)} as ${identity}`).toBe(404)
        }
      }
    })
  }
})

describe('every victim id, from the attacker school', () => {
  it('the victim file through the attacker’s own product: 404', async () => {
    for (const identity of identities) {
      expect((await appFetch(attacker.host, `/files/${attackerProduct}/${victimFile.fileId}`, { cookie: who[identity] })).status, identity).toBe(404)
      expect((await appFetch(attacker.host, `/files/${victimProduct}/${attackerFile.fileId}`, { cookie: who[identity] })).status, identity).toBe(404)
    }
    const remove = await appFetch(attacker.host, `/home/files/${attackerProduct}`, { form: { intent: 'remove_file', fileId: victimFile.fileId }, cookie: who.owner })
    expect(remove.status).toBe(404)
  })

  it('the victim’s stored key through the attacker’s upload endpoint: 404, the object stays', async () => {
    for (const step of ['complete', 'cancel']) {
      expect((await postJson(attacker.host, `/home/files/${attackerProduct}/uploads`, { step, path: victimFile.key }, who.owner)).status, step).toBe(404)
      expect((await postJson(attacker.host, `/home/files/${attackerProduct}/uploads`, { step, path: victimFile.key }, who.student)).status, step).toBe(404)
    }
    expect(await env.MEDIA.head(victimFile.key)).not.toBeNull()
  })

  it('the victim’s student: unknown to the attacker school (grant by email finds its own student; revoke by id 404)', async () => {
    const revoke = await appFetch(attacker.host, `/home/files/${attackerProduct}`, { form: { intent: 'revoke', userId: victimStudent.id }, cookie: who.owner })
    expect(revoke.status).toBe(404)
    const row = await env.DB_SHARD_0.prepare('SELECT tenant_id, revoked_at FROM product_access WHERE user_id = ?').bind(victimStudent.id).first()
    expect(row).toEqual({ tenant_id: victim.tenantId, revoked_at: null })
  })

  it('the attacker’s student, with access to the attacker’s product, sees none of the victim’s files in its panel', async () => {
    const panel = await (await appFetch(attacker.host, '/panel', { cookie: who.student })).text()
    expect(panel).toContain('Attacker pack')
    expect(panel).not.toContain('Victim pack')
    expect(panel).not.toContain(victimFile.fileId)
  })

  it('the media host: the victim key without a signature, or with the attacker’s signature, is 404', async () => {
    expect((await appFetch('media.localhost', `/${victimFile.key}`)).status).toBe(404)
    const res = await appFetch(attacker.host, `/files/${attackerProduct}/${attackerFile.fileId}`, { cookie: who.owner })
    const signed = new URL(res.headers.get('Location')!)
    const swapped = signed.pathname.replace(attackerFile.key, victimFile.key) + signed.search
    expect((await appFetch('media.localhost', swapped)).status).toBe(404)
    expect((await appFetch('media.localhost', signed.pathname + signed.search)).status).toBe(200)
  })

  it('left the victim untouched; the victim’s own people still get in (controls)', async () => {
    const product = await env.DB_SHARD_0.prepare('SELECT title FROM products WHERE id = ?').bind(victimProduct).first()
    expect(product).toEqual({ title: 'Victim pack' })
    expect(await env.DB_SHARD_0.prepare('SELECT count(*) AS n FROM product_files WHERE product_id = ?').bind(victimProduct).first()).toEqual({ n: 1 })
    expect((await appFetch(victim.host, `/home/files/${victimProduct}`, { cookie: victimOwner })).status).toBe(200)
    expect((await appFetch(victim.host, `/files/${victimProduct}/${victimFile.fileId}`, { cookie: victimOwner })).status).toBe(302)
    expect((await appFetch(victim.host, `/files/${victimProduct}/${victimFile.fileId}`, { cookie: victimStudent.cookie })).status).toBe(302)
  })
})
