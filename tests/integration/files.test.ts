// Private files through the app (issue 4 §3): file products in /home/files, uploads through the
// real media worker and S3 peer, access grants, and downloads through short-lived signed URLs on
// the media host. Cross-school probes are in files-isolation.test.ts.
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import type { FileInitiateBody } from '#app/media/files-contract.ts'
import { signedFilePath } from '#workers/media/src/files-signing.ts'
import { bytes } from '#tests/bytes.ts'
import { appFetch, createTestSchool, createTestStudent, flashOf, followFlash, login, type TestSchool } from '#tests/factories.ts'

/** workers/media/wrangler.toml's development FILE_URL_SIGNING_KEY (the auxiliary media worker uses it). */
const DEV_SIGNING_KEY = 'coursefront_dev_file_url_key_000000000000'
const PDF = bytes('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n', new Uint8Array(500).fill(0x20), '\n%%EOF\n')
const EXE = bytes('MZ', [0x90, 0, 3, 0], new Uint8Array(300))

function postJson(host: string, path: string, body: unknown, cookie?: string) {
  return appFetch(host, path, { method: 'POST', cookie, headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(body) })
}

/** What file-upload-client.ts does: create → PUT (no cookies) → complete. */
async function uploadToProduct(host: string, cookie: string, productId: string, filename: string, data: Uint8Array, contentType = 'application/pdf') {
  const endpoint = `/home/files/${productId}/uploads`
  const created = await postJson(host, endpoint, { step: 'create', filename, extension: filename.split('.').pop(), size: data.length, contentType }, cookie)
  expect(created.status, await created.clone().text()).toBe(200)
  const init = (await created.json()) as FileInitiateBody
  const upload = new URL(init.uploadUrl)
  const put = await appFetch(upload.host, upload.pathname + upload.search, { method: 'PUT', headers: init.headers, body: data as unknown as BodyInit })
  expect(put.status).toBe(200)
  const completed = await postJson(host, endpoint, { step: 'complete', path: init.path }, cookie)
  return { init, status: completed.status, body: (await completed.json()) as { file: { id: string; filename: string }; error?: string } }
}

const location = (res: Response) => res.headers.get('Location') ?? ''

let school: TestSchool
let owner: string
let jan: { id: string; email: string; cookie: string }
let ola: { id: string; email: string; cookie: string }
let productId: string
let fileId: string
let fileKey: string

async function productCount() {
  return (await env.DB_SHARD_0.prepare('SELECT count(*) AS n FROM products WHERE tenant_id = ?').bind(school.tenantId).first<{ n: number }>())!.n
}

beforeAll(async () => {
  school = await createTestSchool()
  owner = await login(school.host, school.owner.email, school.owner.password)
  const j = await createTestStudent(school.tenantId, { email: 'jan@example.com', name: 'Jan Kowalski' })
  const o = await createTestStudent(school.tenantId, { email: 'ola@example.com', name: 'Ola Wiśniewska' })
  jan = { ...j, cookie: await login(school.host, j.email, j.password) }
  ola = { ...o, cookie: await login(school.host, o.email, o.password) }
})

describe('/home/files', () => {
  it('is for owners and admins: students 404, signed-out visitors go to /login and back', async () => {
    const page = await appFetch(school.host, '/home/files', { cookie: owner })
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('New file product')
    expect((await appFetch(school.host, '/home/files', { cookie: jan.cookie })).status).toBe(404)
    const anonymous = await appFetch(school.host, '/home/files')
    expect(anonymous.status).toBe(302)
    expect(location(anonymous)).toBe('/login?redirectTo=%2Fhome%2Ffiles')
    expect((await appFetch(school.host, '/home/files', { form: { title: 'By a student' }, cookie: jan.cookie })).status).toBe(404)
  })

  it('refuses a blank or control-character title (400, nothing written), creates with a title', async () => {
    for (const title of ['   ', 'a\u0007b', 'x'.repeat(121)]) {
      const res = await appFetch(school.host, '/home/files', { form: { title }, cookie: owner })
      expect(res.status, JSON.stringify(title)).toBe(400)
    }
    expect(await productCount()).toBe(0)
    const res = await appFetch(school.host, '/home/files', { form: { title: '  Budget workbook ' }, cookie: owner })
    expect(res.status).toBe(302)
    const match = /^\/home\/files\/([a-z2-7]+)$/.exec(location(res))
    expect(match).not.toBeNull()
    expect(flashOf(res)).toMatchObject({ done: 'created' })
    productId = match![1]
    const row = await env.DB_SHARD_0.prepare('SELECT title, slug, kind, published FROM products WHERE id = ?').bind(productId).first()
    expect(row).toEqual({ title: 'Budget workbook', slug: 'budget-workbook', kind: 'file', published: 0 })
    const list = await (await appFetch(school.host, '/home/files', { cookie: owner })).text()
    expect(list).toContain('Budget workbook')
    expect(list).toContain('0 files')
  })

  it('saves title, description and published; a bad form changes nothing', async () => {
    const bad = await appFetch(school.host, `/home/files/${productId}`, { form: { intent: 'update', title: '', description: 'x' }, cookie: owner })
    expect(bad.status).toBe(400)
    const ok = await appFetch(school.host, `/home/files/${productId}`, { form: { intent: 'update', title: 'Budget workbook 2026', description: 'Line one\nLine two', published: 'on' }, cookie: owner })
    expect(ok.status).toBe(302)
    expect(location(ok)).toBe(`/home/files/${productId}`)
    expect(flashOf(ok)).toMatchObject({ done: 'saved' })
    const row = await env.DB_SHARD_0.prepare('SELECT title, slug, description, published FROM products WHERE id = ?').bind(productId).first()
    expect(row).toEqual({ title: 'Budget workbook 2026', slug: 'budget-workbook', description: 'Line one\nLine two', published: 1 })
    expect((await appFetch(school.host, `/home/files/${productId}`, { form: { intent: 'explode' }, cookie: owner })).status).toBe(400)
  })
})

describe('uploads', () => {
  it('create → PUT → complete attaches the file to the product', async () => {
    const { init, status, body } = await uploadToProduct(school.host, owner, productId, 'Zeszyt ćwiczeń.pdf', PDF)
    expect(status).toBe(200)
    expect(init.path).toMatch(new RegExp(`^tenants/${school.tenantId}/file_product/`))
    expect(body.file).toMatchObject({ filename: 'Zeszyt ćwiczeń.pdf', size: PDF.length, contentType: 'application/pdf' })
    fileId = body.file.id
    fileKey = init.path
    const row = await env.DB_SHARD_0.prepare('SELECT m.created_by, m.status FROM product_files f JOIN media_objects m ON m.id = f.media_object_id WHERE f.id = ?').bind(fileId).first()
    expect(row).toEqual({ created_by: school.owner.id, status: 'ready' })
    const page = await (await appFetch(school.host, `/home/files/${productId}`, { cookie: owner })).text()
    expect(page).toContain('Zeszyt ćwiczeń.pdf')
    expect(page).toContain(`href="/files/${productId}/${fileId}"`)
  })

  it('an .exe renamed .pdf is refused after upload (422, nothing kept); a bad extension before (400)', async () => {
    const { init, status, body } = await uploadToProduct(school.host, owner, productId, 'invoice.pdf', EXE)
    expect(status).toBe(422)
    expect(body).toEqual({ error: 'media.error.unsupported', values: {} })
    expect(await env.MEDIA.head(init.path)).toBeNull()
    expect(await env.DB_SHARD_0.prepare('SELECT count(*) AS n FROM product_files WHERE product_id = ?').bind(productId).first<{ n: number }>()).toEqual({ n: 1 })
    const exe = await postJson(school.host, `/home/files/${productId}/uploads`, { step: 'create', filename: 'setup.exe', extension: 'exe', size: 10, contentType: 'application/octet-stream' }, owner)
    expect(exe.status).toBe(400)
    expect(await exe.json()).toEqual({ error: 'media.error.bad_extension', values: {} })
    const bad = await postJson(school.host, `/home/files/${productId}/uploads`, { step: 'launch' }, owner)
    expect(bad.status).toBe(400)
  })

  it('students get 404, signed-out scripts 419, GET 404', async () => {
    const body = { step: 'create', filename: 'a.pdf', extension: 'pdf', size: 10, contentType: 'application/pdf' }
    expect((await postJson(school.host, `/home/files/${productId}/uploads`, body, jan.cookie)).status).toBe(404)
    expect((await postJson(school.host, `/home/files/${productId}/uploads`, body)).status).toBe(419)
    expect((await appFetch(school.host, `/home/files/${productId}/uploads`, { cookie: owner })).status).toBe(404)
  })

  it('cancel drops an upload that was never attached, never an attached file', async () => {
    const endpoint = `/home/files/${productId}/uploads`
    const created = await postJson(school.host, endpoint, { step: 'create', filename: 'x.pdf', extension: 'pdf', size: PDF.length, contentType: 'application/pdf' }, owner)
    const init = (await created.json()) as FileInitiateBody
    const upload = new URL(init.uploadUrl)
    await appFetch(upload.host, upload.pathname + upload.search, { method: 'PUT', headers: init.headers, body: PDF as unknown as BodyInit })
    const cancel = await postJson(school.host, endpoint, { step: 'cancel', path: init.path }, owner)
    expect(await cancel.json()).toEqual({ cancelled: true })
    expect(await env.MEDIA.head(init.path)).toBeNull()
    expect(await (await postJson(school.host, endpoint, { step: 'cancel', path: fileKey }, owner)).json()).toEqual({ cancelled: false })
    expect(await env.MEDIA.head(fileKey)).not.toBeNull()
  })
})

describe('downloads and access', () => {
  const fileUrl = () => `/files/${productId}/${fileId}`

  async function download(cookie: string, query = '') {
    const res = await appFetch(school.host, fileUrl() + query, { cookie })
    expect(res.status).toBe(302)
    expect(res.headers.get('Cache-Control')).toBe('private, no-store')
    const signed = new URL(location(res))
    expect(signed.origin).toBe('http://media.localhost')
    expect(signed.pathname).toBe(`/private/${fileKey}`)
    return { signed, served: await appFetch(signed.host, signed.pathname + signed.search) }
  }

  it('staff get a fresh signed URL; it serves the bytes with the original filename', async () => {
    const { served } = await download(owner)
    expect(served.status).toBe(200)
    expect(served.headers.get('Content-Type')).toBe('application/pdf')
    expect(served.headers.get('Content-Disposition')).toBe(`attachment; filename="Zeszyt cwiczen.pdf"; filename*=UTF-8''Zeszyt%20%C4%87wicze%C5%84.pdf`)
    expect(served.headers.get('X-Content-Type-Options')).toBe('nosniff')
    expect(served.headers.get('Cache-Control')).toBe('private, no-store')
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PDF)
    const open = await download(owner, '?mode=open')
    expect(open.served.headers.get('Content-Disposition')).toMatch(/^inline; /)
    expect((await appFetch(school.host, `${fileUrl()}?mode=steal`, { cookie: owner })).status).toBe(400)
  })

  it('a student without access gets 404; signed out goes to /login and comes back', async () => {
    expect((await appFetch(school.host, fileUrl(), { cookie: ola.cookie })).status).toBe(404)
    const anonymous = await appFetch(school.host, fileUrl())
    expect(anonymous.status).toBe(302)
    expect(location(anonymous)).toBe(`/login?redirectTo=${encodeURIComponent(fileUrl())}`)
    const back = await appFetch(school.host, '/login', { form: { email: jan.email, password: 'student-pass-1', redirectTo: fileUrl() } })
    expect(back.status).toBe(302)
    expect(location(back)).toBe(fileUrl())
  })

  it('grant by email: unknown and staff emails are field errors; granted → the student downloads; twice → already', async () => {
    const grant = (email: string) => appFetch(school.host, `/home/files/${productId}`, { form: { intent: 'grant', email, reason: 'Gift' }, cookie: owner })
    const unknown = await grant('nobody@example.com')
    expect(unknown.status).toBe(404)
    expect(await unknown.text()).toContain('No student of your school has this email.')
    expect((await grant(school.owner.email)).status).toBe(409)
    expect((await grant('not-an-email')).status).toBe(400)
    expect(await env.DB_SHARD_0.prepare('SELECT count(*) AS n FROM product_access').first<{ n: number }>()).toEqual({ n: 0 })

    const granted = await grant('JAN@example.com ')
    expect(granted.status).toBe(302)
    expect(location(granted)).toBe(`/home/files/${productId}`)
    expect(flashOf(granted)).toMatchObject({ done: 'granted' })
    const page = await (await appFetch(school.host, location(granted), { cookie: followFlash(owner, granted) })).text()
    expect(page).toContain('Access granted')
    expect(page).toContain('data-access-email="jan@example.com" data-access-status="active"')
    const again = await grant('jan@example.com')
    expect(again.status).toBe(409)
    expect(await again.text()).toContain('This student already has access to this product')

    const { served } = await download(jan.cookie)
    expect(served.status).toBe(200)
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PDF)
    expect((await appFetch(school.host, fileUrl(), { cookie: ola.cookie })).status).toBe(404)
    const list = await (await appFetch(school.host, '/home/files', { cookie: owner })).text()
    expect(list).toContain('1 file')
    expect(list).toContain('1 student')
  })

  it('the student panel lists the file product with its files; others see none', async () => {
    const panel = await (await appFetch(school.host, '/panel', { cookie: jan.cookie })).text()
    expect(panel).toContain('My files')
    expect(panel).toContain('Budget workbook 2026')
    expect(panel).toContain(`href="/files/${productId}/${fileId}"`)
    const other = await (await appFetch(school.host, '/panel', { cookie: ola.cookie })).text()
    expect(other).toContain('You have no files yet.')
    expect(other).not.toContain(fileId)
  })

  it('a signed URL that was tampered with or has expired is 404; the public URL of a private key is 404', async () => {
    const { signed } = await download(jan.cookie)
    const tampered = signed.pathname + signed.search.replace(/sig=([0-9a-f])/, (_, c: string) => `sig=${c === 'a' ? 'b' : 'a'}`)
    expect((await appFetch('media.localhost', tampered)).status).toBe(404)
    const expired = await signedFilePath(DEV_SIGNING_KEY, fileKey, Math.floor(Date.now() / 1000) - 5, 'attachment')
    expect((await appFetch('media.localhost', expired)).status).toBe(404)
    // The same key with a fresh expiry works, so the 404 above was the expiry.
    expect((await appFetch('media.localhost', await signedFilePath(DEV_SIGNING_KEY, fileKey, Math.floor(Date.now() / 1000) + 60, 'attachment'))).status).toBe(200)
    expect((await appFetch('media.localhost', `/${fileKey}`)).status).toBe(404)
    expect((await appFetch('media.localhost', signed.pathname + signed.search, { method: 'POST' })).status).toBe(405)
  })

  it('remove access ("Access denied") → 404 and gone from the panel; re-grant restores it', async () => {
    const revoke = () => appFetch(school.host, `/home/files/${productId}`, { form: { intent: 'revoke', userId: jan.id, reason: 'Refund' }, cookie: owner })
    const res = await revoke()
    expect(res.status).toBe(302)
    expect(location(res)).toBe(`/home/files/${productId}`)
    expect(flashOf(res)).toMatchObject({ done: 'revoked' })
    expect(await (await appFetch(school.host, location(res), { cookie: followFlash(owner, res) })).text()).toContain('Access denied')
    expect((await appFetch(school.host, fileUrl(), { cookie: jan.cookie })).status).toBe(404)
    expect(await (await appFetch(school.host, '/panel', { cookie: jan.cookie })).text()).not.toContain('Budget workbook 2026')
    expect((await revoke()).status).toBe(404)
    const row = await env.DB_SHARD_0.prepare('SELECT revoked_reason FROM product_access WHERE user_id = ?').bind(jan.id).first()
    expect(row).toEqual({ revoked_reason: 'Refund' })
    expect((await appFetch(school.host, `/home/files/${productId}`, { form: { intent: 'grant', email: jan.email }, cookie: owner })).status).toBe(302)
    expect((await appFetch(school.host, fileUrl(), { cookie: jan.cookie })).status).toBe(302)
  })

  it('removing a file deletes the stored object; its download is 404 after', async () => {
    expect((await appFetch(school.host, `/home/files/${productId}`, { form: { intent: 'remove_file', fileId }, cookie: jan.cookie })).status).toBe(404)
    const res = await appFetch(school.host, `/home/files/${productId}`, { form: { intent: 'remove_file', fileId }, cookie: owner })
    expect(res.status).toBe(302)
    expect(location(res)).toBe(`/home/files/${productId}`)
    expect(flashOf(res)).toMatchObject({ done: 'file_removed' })
    expect(await env.MEDIA.head(fileKey)).toBeNull()
    expect((await appFetch(school.host, fileUrl(), { cookie: owner })).status).toBe(404)
    expect((await appFetch(school.host, `/home/files/${productId}`, { form: { intent: 'remove_file', fileId }, cookie: owner })).status).toBe(404)
  })
})
