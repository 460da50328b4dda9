// Image uploads through the app (issue 4): /home/images/{create,complete,delete} call the real
// media worker (auxiliary worker) over MEDIA_WORKER; the browser's PUT goes to s3.{PLATFORM} (the
// S3 peer through server.ts) and images are served from media.{PLATFORM}. The ids travel in the
// JSON body, so the cross-tenant matrix (URL parameters) cannot cover them: this file does.
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import type { CompleteBody, InitiateBody } from '#app/media/contract.ts'
import { getTenantImages, updateTenantImages } from '#app/models/media.server.ts'
import { appFetch, createTestSchool, createTestStudent, login, type TestSchool, control, dbs } from '#tests/factories.ts'

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, ...new Array(100).fill(7)])
const SVG_SCRIPT = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')

function postJson(host: string, path: string, body: unknown, cookie?: string) {
  return appFetch(host, path, { method: 'POST', cookie, headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(body) })
}

/** What the browser does: create → PUT (no cookies) → complete. */
async function uploadThroughApp(school: TestSchool, cookie: string, context: string, filename: string, data: Uint8Array, contentType: string) {
  const created = await postJson(school.host, '/home/images/create', { context, filename, extension: filename.split('.').pop(), size: data.length, contentType }, cookie)
  expect(created.status).toBe(200)
  const init = (await created.json()) as InitiateBody
  const upload = new URL(init.uploadUrl)
  expect(upload.host).toBe('s3.localhost')
  const put = await appFetch(upload.host, upload.pathname + upload.search, { method: 'PUT', headers: init.headers, body: data as unknown as BodyInit })
  expect(put.status, await put.clone().text()).toBe(200)
  const completed = await postJson(school.host, '/home/images/complete', { path: init.path }, cookie)
  return { init, completed: { status: completed.status, body: (await completed.json()) as CompleteBody & { error?: string } } }
}

let victim: TestSchool
let victimCookie: string
let attacker: TestSchool
let attackerCookie: string
let studentCookie: string
let ready: InitiateBody
let pending: InitiateBody

beforeAll(async () => {
  victim = await createTestSchool()
  attacker = await createTestSchool()
  victimCookie = await login(victim.host, victim.owner.email, victim.owner.password)
  attackerCookie = await login(attacker.host, attacker.owner.email, attacker.owner.password)
  const student = await createTestStudent(attacker.tenantId)
  studentCookie = await login(attacker.host, student.email, student.password)
  ready = (await uploadThroughApp(victim, victimCookie, 'avatar', 'me.png', PNG, 'image/png')).init
  const created = await postJson(victim.host, '/home/images/create', { context: 'cover', filename: 'c.png', extension: 'png', size: PNG.length, contentType: 'image/png' }, victimCookie)
  pending = (await created.json()) as InitiateBody
})

describe('image upload through the app', () => {
  it('create → PUT → complete, then the image is served from the media host with safe headers', async () => {
    expect(ready.path).toMatch(new RegExp(`^tenants/${victim.tenantId}/avatar/`))
    expect(ready.downloadUrl).toBe(`http://media.localhost/${ready.path}`)
    const row = await env.DB_SHARD_0.prepare('SELECT tenant_id, context, status, created_by, original_filename FROM media_objects WHERE key = ?').bind(ready.path).first()
    expect(row).toEqual({ tenant_id: victim.tenantId, context: 'avatar', status: 'ready', created_by: victim.owner.id, original_filename: 'me.png' })
    const res = await appFetch('media.localhost', `/${ready.path}`, { headers: { Cookie: victimCookie } })
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toBe('image/png')
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff')
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable')
    expect(res.headers.get('Set-Cookie')).toBeNull()
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG)
  })

  it('refuses an SVG with a script: 422 and nothing left', async () => {
    const { init, completed } = await uploadThroughApp(victim, victimCookie, 'cover', 'logo.svg', SVG_SCRIPT, 'image/svg+xml')
    expect(completed.status).toBe(422)
    expect(completed.body).toMatchObject({ error: 'media.error.unsafe_svg' })
    expect(await env.MEDIA.head(init.path)).toBeNull()
    expect((await appFetch('media.localhost', `/${init.path}`)).status).toBe(404)
  })

  it('refuses a 10 MB image for a post (413, max size) and a bad extension (400)', async () => {
    const big = await postJson(victim.host, '/home/images/create', { context: 'post_image', filename: 'big.jpg', extension: 'jpg', size: 10 * 1024 * 1024, contentType: 'image/jpeg' }, victimCookie)
    expect(big.status).toBe(413)
    expect(await big.json()).toEqual({ error: 'media.error.max_size', values: { size: 0.6 } })
    const exe = await postJson(victim.host, '/home/images/create', { context: 'cover', filename: 'x.exe', extension: 'exe', size: 10, contentType: 'application/octet-stream' }, victimCookie)
    expect(exe.status).toBe(400)
    expect(await exe.json()).toEqual({ error: 'media.error.bad_extension', values: {} })
  })

  it('only POST; the pages answer with a CSP that allows the media and S3 origins and nothing wider', async () => {
    expect((await appFetch(victim.host, '/home/images/create', { cookie: victimCookie })).status).toBe(404)
    const page = await appFetch(victim.host, '/login')
    const csp = page.headers.get('Content-Security-Policy')!
    expect(csp).toContain("img-src 'self' data: https: http://media.localhost")
    expect(csp).toContain("connect-src 'self' http://s3.localhost")
  })

  it('the media host takes no writes and serves no pending object', async () => {
    expect((await appFetch('media.localhost', `/${ready.path}`, { method: 'POST' })).status).toBe(405)
    expect((await appFetch('media.localhost', `/tenants/${victim.tenantId}/images/delete`, { method: 'POST', body: JSON.stringify({ path: ready.path, context: 'avatar' }) })).status).toBe(405)
    expect((await appFetch('media.localhost', `/${pending.path}`)).status).toBe(404)
  })
})

describe("another school's paths are unreachable", () => {
  const actions = () => [
    ['/home/images/complete', { path: pending.path }],
    ['/home/images/complete', { path: ready.path }],
    ['/home/images/delete', { path: ready.path, context: 'avatar' }],
    ['/home/images/delete', { path: pending.path, context: 'cover' }],
  ] as const

  it("another school's owner: 404, nothing changes", async () => {
    for (const [path, body] of actions()) expect((await postJson(attacker.host, path, body, attackerCookie)).status, `${path} ${JSON.stringify(body)}`).toBe(404)
    expect(await env.MEDIA.head(ready.path)).not.toBeNull()
    expect(await updateTenantImages(dbs(), attacker.tenantId, { avatarPath: ready.path })).toBe(false)
    expect(await getTenantImages(control(), attacker.tenantId)).toEqual({ avatarPath: null, coverPath: null })
  })

  it("another school's student: 404", async () => {
    for (const [path, body] of actions()) expect((await postJson(attacker.host, path, body, studentCookie)).status).toBe(404)
  })

  it('the victim owner’s cookie on the attacker host, and anonymous calls: no access', async () => {
    for (const [path, body] of actions()) {
      // Cookies are host-only, so the victim's cookie means nothing here: anonymous.
      expect((await postJson(attacker.host, path, body, victimCookie)).status).toBe(419)
      expect((await postJson(attacker.host, path, body)).status).toBe(419)
      expect((await postJson(victim.host, path, body)).status).toBe(419)
    }
    expect(await env.MEDIA.head(ready.path)).not.toBeNull()
  })

  it('the rightful owner can delete (true), and the avatar rules hold', async () => {
    // Wrong context and pending objects cannot become the avatar / cover.
    expect(await updateTenantImages(dbs(), victim.tenantId, { coverPath: ready.path })).toBe(false)
    expect(await updateTenantImages(dbs(), victim.tenantId, { coverPath: pending.path })).toBe(false)
    expect(await updateTenantImages(dbs(), victim.tenantId, { avatarPath: ready.path })).toBe(true)
    expect(await getTenantImages(control(), victim.tenantId)).toEqual({ avatarPath: ready.path, coverPath: null })
    const del = await postJson(victim.host, '/home/images/delete', { path: ready.path, context: 'avatar' }, victimCookie)
    expect(del.status).toBe(200)
    expect(await del.json()).toBe(true)
    expect(await env.MEDIA.head(ready.path)).toBeNull()
    // Deleting the image clears the avatar that pointed at it.
    expect(await getTenantImages(control(), victim.tenantId)).toEqual({ avatarPath: null, coverPath: null })
  })
})
