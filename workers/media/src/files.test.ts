// Private files in the media worker: uploads checked like images, then served only through
// short-lived signed URLs (ADR 011).
import { beforeEach, describe, expect, it } from 'vitest'
import { createTestSchool } from '#tests/factories.ts'
import { parseRange } from './files.ts'
import { signedFilePath, signFileUrl } from './files-signing.ts'
import { fetchPublic, filesApi, initiateFile, putFile, sign, uploadFile } from './files-test-helpers.ts'
import { bytes, EXE, expectNothingStored, freshSchoolAndStorage, JPEG, mediaRows, PNG, r2Keys, serve, testEnv, upload } from './test-helpers.ts'

const PDF = bytes('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n', new Uint8Array(2000).fill(0x20), '\n%%EOF\n')
const ZIP = bytes([0x50, 0x4b, 0x03, 0x04], new Uint8Array(300).fill(1))

let tenantId: string
beforeEach(async () => {
  tenantId = await freshSchoolAndStorage()
})

describe('upload', () => {
  it('initiate → presigned PUT → complete for a file product PDF, a ZIP, an image and a lecture PDF', async () => {
    const { init, complete } = await uploadFile(tenantId, { context: 'file_product', filename: 'Zeszyt ćwiczeń.pdf', contentType: 'application/pdf', data: PDF })
    expect(init.path).toMatch(new RegExp(`^tenants/${tenantId}/file_product/[a-z2-7]{26}\\.pdf$`))
    expect(init.headers).toEqual({ 'Content-Type': 'application/pdf' })
    expect(init).not.toHaveProperty('downloadUrl')
    const url = new URL(init.uploadUrl)
    expect(url.origin).toBe('http://s3.localhost:8787')
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host')
    expect(complete).toEqual({ status: 200, body: { path: init.path, context: 'file_product', contentType: 'application/pdf', size: PDF.length, filename: 'Zeszyt ćwiczeń.pdf' } })
    for (const [context, filename, contentType, data] of [
      ['file_product', 'templates.zip', 'application/x-zip-compressed', ZIP],
      ['file_product', 'poster.jpg', 'image/jpeg', JPEG],
      ['lecture_pdf', 'slides.pdf', 'application/pdf', PDF],
    ] as const) {
      const done = await uploadFile(tenantId, { context, filename, contentType, data })
      expect(done.complete.status, filename).toBe(200)
    }
    expect((await mediaRows()).every((r) => r.status === 'ready')).toBe(true)
    // Completing again answers the same.
    expect((await filesApi(tenantId, 'complete', { path: init.path })).status).toBe(200)
  })

  it('refuses at initiate: wrong extension per context, image contexts, too big, empty, wrong type', async () => {
    const cases: [unknown, number, unknown][] = [
      [{ context: 'file_product', filename: 'setup.exe', extension: 'exe', size: 10, contentType: 'application/octet-stream' }, 400, { error: 'media.error.bad_extension' }],
      [{ context: 'file_product', filename: 'logo.svg', extension: 'svg', size: 10, contentType: 'image/svg+xml' }, 400, { error: 'media.error.bad_extension' }],
      [{ context: 'lecture_pdf', filename: 'a.zip', extension: 'zip', size: 10, contentType: 'application/zip' }, 400, { error: 'media.error.bad_extension' }],
      [{ context: 'file_product', filename: 'a.pdf.exe', extension: 'pdf', size: 10, contentType: 'application/pdf' }, 400, { error: 'media.error.bad_extension' }],
      [{ context: 'lecture_pdf', filename: 'big.pdf', extension: 'pdf', size: 51 * 1024 * 1024, contentType: 'application/pdf' }, 413, { error: 'media.error.max_size', values: { size: 50 } }],
      [{ context: 'file_product', filename: 'huge.zip', extension: 'zip', size: 501 * 1024 * 1024, contentType: 'application/zip' }, 413, { error: 'media.error.max_size', values: { size: 500 } }],
      [{ context: 'file_product', filename: 'empty.pdf', extension: 'pdf', size: 0, contentType: 'application/pdf' }, 400, { error: 'media.error.empty' }],
      [{ context: 'file_product', filename: 'a.pdf', extension: 'pdf', size: 10, contentType: 'text/html' }, 400, { error: 'media.error.type_mismatch' }],
      // The image contexts are the image API's, not this one's.
      [{ context: 'avatar', filename: 'a.png', extension: 'png', size: 10, contentType: 'image/png' }, 400, { error: 'media.error.upload_failed' }],
    ]
    for (const [body, status, answer] of cases) expect(await filesApi(tenantId, 'initiate', body), JSON.stringify(body)).toEqual({ status, body: answer })
    await expectNothingStored()
  })

  const refused: [string, { filename: string; contentType: string; data: Uint8Array }, string][] = [
    ['an .exe renamed .pdf', { filename: 'invoice.pdf', contentType: 'application/pdf', data: EXE }, 'media.error.unsupported'],
    ['a ZIP renamed .pdf', { filename: 'book.pdf', contentType: 'application/pdf', data: ZIP }, 'media.error.type_mismatch'],
    ['HTML renamed .pdf', { filename: 'page.pdf', contentType: 'application/pdf', data: bytes('<!doctype html><script>alert(1)</script>') }, 'media.error.unsupported'],
    ['a PDF renamed .zip', { filename: 'a.zip', contentType: 'application/zip', data: PDF }, 'media.error.type_mismatch'],
  ]
  for (const [name, file, error] of refused) {
    it(`${name}: 422 ${error} on complete, object and row deleted`, async () => {
      const { complete } = await uploadFile(tenantId, { context: 'file_product', ...file })
      expect(complete).toEqual({ status: 422, body: { error } })
      await expectNothingStored()
    })
  }

  it('complete without a PUT: 422 upload_failed; an image upload cannot be completed here', async () => {
    const init = await initiateFile(tenantId, { context: 'file_product', filename: 'a.pdf', contentType: 'application/pdf', data: PDF })
    expect(await filesApi(tenantId, 'complete', { path: init.body.path })).toEqual({ status: 422, body: { error: 'media.error.upload_failed' } })
    await expectNothingStored()
    const image = await upload(tenantId, { context: 'avatar', filename: 'me.png', contentType: 'image/png', data: PNG })
    expect((await filesApi(tenantId, 'complete', { path: image.init.path })).status).toBe(404)
  })

  it('delete: true and gone; wrong context, another school, public origin: 404', async () => {
    const { init } = await uploadFile(tenantId, { context: 'file_product', filename: 'a.pdf', contentType: 'application/pdf', data: PDF })
    const other = (await createTestSchool()).tenantId
    expect((await filesApi(tenantId, 'delete', { path: init.path, context: 'lecture_pdf' })).status).toBe(404)
    expect((await filesApi(other, 'delete', { path: init.path, context: 'file_product' })).status).toBe(404)
    expect((await filesApi(tenantId, 'delete', { path: init.path, context: 'file_product' }, testEnv.MEDIA_ORIGIN)).status).toBe(404)
    expect(await r2Keys()).toEqual([init.path])
    expect(await filesApi(tenantId, 'delete', { path: init.path, context: 'file_product' })).toEqual({ status: 200, body: true })
    await expectNothingStored()
  })
})

describe('signed URLs', () => {
  async function readyPdf(context: 'file_product' | 'lecture_pdf' = 'file_product', filename = 'Zeszyt ćwiczeń.pdf') {
    return (await uploadFile(tenantId, { context, filename, contentType: 'application/pdf', data: PDF })).init.path
  }

  it('sign → GET serves the bytes with the original filename, the real type and no caching', async () => {
    const path = await readyPdf()
    const signed = await sign(tenantId, path)
    expect(signed.status).toBe(200)
    const now = Math.floor(Date.now() / 1000)
    expect(signed.body.expiresAt).toBeGreaterThanOrEqual(now + 299)
    expect(signed.body.expiresAt).toBeLessThanOrEqual(now + 301)
    const url = new URL(signed.body.url)
    expect(url.origin).toBe('http://media.localhost:8787')
    expect(url.pathname).toBe(`/private/${path}`)
    expect([...url.searchParams.keys()]).toEqual(['disposition', 'expires', 'sig'])
    expect(url.searchParams.get('disposition')).toBe('attachment')
    expect(url.searchParams.get('expires')).toBe(String(signed.body.expiresAt))
    expect(url.searchParams.get('sig')).toBe(await signFileUrl(testEnv.FILE_URL_SIGNING_KEY, path, signed.body.expiresAt, 'attachment'))

    const res = await fetchPublic(signed.body.url)
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toBe('application/pdf')
    expect(res.headers.get('Content-Disposition')).toBe(`attachment; filename="Zeszyt cwiczen.pdf"; filename*=UTF-8''Zeszyt%20%C4%87wicze%C5%84.pdf`)
    expect(res.headers.get('Content-Length')).toBe(String(PDF.length))
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff')
    expect(res.headers.get('Cache-Control')).toBe('private, no-store')
    expect(res.headers.get('Referrer-Policy')).toBe('no-referrer')
    expect(res.headers.get('Accept-Ranges')).toBe('bytes')
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PDF)

    const head = await fetchPublic(signed.body.url, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('Content-Length')).toBe(String(PDF.length))
    expect(await head.text()).toBe('')
  })

  it('lecture PDFs open inline by default (no sandbox: PDF viewers refuse it); the app may ask for either', async () => {
    const path = await readyPdf('lecture_pdf', 'Slides.pdf')
    const inline = await fetchPublic((await sign(tenantId, path)).body.url)
    expect(inline.headers.get('Content-Disposition')).toBe(`inline; filename="Slides.pdf"; filename*=UTF-8''Slides.pdf`)
    expect(inline.headers.get('Content-Security-Policy')).toBeNull()
    const download = await fetchPublic((await sign(tenantId, path, 'attachment')).body.url)
    expect(download.headers.get('Content-Disposition')).toMatch(/^attachment; /)
  })

  it('images of a file product are served sandboxed', async () => {
    const { init } = await uploadFile(tenantId, { context: 'file_product', filename: 'poster.png', contentType: 'image/png', data: PNG })
    const res = await fetchPublic((await sign(tenantId, init.path, 'inline')).body.url)
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toBe('image/png')
    expect(res.headers.get('Content-Security-Policy')).toContain('sandbox')
  })

  it('answers byte ranges (206), a suffix range, and 416 past the end', async () => {
    const path = await readyPdf()
    const { url } = (await sign(tenantId, path)).body
    const part = await fetchPublic(url, { headers: { Range: 'bytes=0-4' } })
    expect(part.status).toBe(206)
    expect(part.headers.get('Content-Range')).toBe(`bytes 0-4/${PDF.length}`)
    expect(part.headers.get('Content-Length')).toBe('5')
    expect(new TextDecoder().decode(await part.arrayBuffer())).toBe('%PDF-')
    const tail = await fetchPublic(url, { headers: { Range: 'bytes=-6' } })
    expect(tail.status).toBe(206)
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(PDF.slice(-6))
    const open = await fetchPublic(url, { headers: { Range: `bytes=${PDF.length - 3}-` } })
    expect(open.headers.get('Content-Range')).toBe(`bytes ${PDF.length - 3}-${PDF.length - 1}/${PDF.length}`)
    const past = await fetchPublic(url, { headers: { Range: `bytes=${PDF.length}-` } })
    expect(past.status).toBe(416)
    expect(past.headers.get('Content-Range')).toBe(`bytes */${PDF.length}`)
    // Several ranges: the whole file.
    expect((await fetchPublic(url, { headers: { Range: 'bytes=0-1,4-5' } })).status).toBe(200)
  })

  it('parseRange follows RFC 9110 for one range', () => {
    expect(parseRange(null, 10)).toBe('none')
    expect(parseRange('bytes=2-', 10)).toEqual({ offset: 2, length: 8 })
    expect(parseRange('bytes=2-100', 10)).toEqual({ offset: 2, length: 8 })
    expect(parseRange('bytes=-100', 10)).toEqual({ offset: 0, length: 10 })
    expect(parseRange('bytes=5-2', 10)).toBe('none')
    expect(parseRange('items=0-1', 10)).toBe('none')
    expect(parseRange('bytes=-0', 10)).toBe('unsatisfiable')
    expect(parseRange('bytes=10-', 10)).toBe('unsatisfiable')
  })

  it('a tampered, re-targeted, re-dispositioned, expired or incomplete URL is a bare 404', async () => {
    const path = await readyPdf()
    const otherPath = await readyPdf()
    const { url } = (await sign(tenantId, path)).body
    const u = new URL(url)
    const sig = u.searchParams.get('sig')!
    const expires = Number(u.searchParams.get('expires'))
    const key = testEnv.FILE_URL_SIGNING_KEY
    const variants = [
      url.replace(/sig=([0-9a-f])/, (_, c: string) => `sig=${c === '0' ? '1' : '0'}`),
      url.replace(path, otherPath),
      url.replace('disposition=attachment', 'disposition=inline'),
      url.replace(`expires=${expires}`, `expires=${expires + 3600}`),
      url.replace(/&sig=[0-9a-f]+/, ''),
      url.replace(/sig=[0-9a-f]+/, `sig=${sig.toUpperCase()}`),
      url.replace(/sig=[0-9a-f]+/, `sig=${sig.slice(0, 32)}`),
      url.replace('disposition=attachment', 'disposition=download'),
      url.replace(`/private/${path}`, `/private/${path.replace('.pdf', '.PDF')}`),
      `${testEnv.MEDIA_ORIGIN}${await signedFilePath(key, path, Math.floor(Date.now() / 1000) - 1, 'attachment')}`,
      `${testEnv.MEDIA_ORIGIN}${await signedFilePath('another-key-of-at-least-32-characters!!', path, expires, 'attachment')}`,
    ]
    for (const variant of variants) {
      const res = await fetchPublic(variant)
      expect(res.status, variant).toBe(404)
      expect(await res.text()).toBe('')
      expect(res.headers.get('Cache-Control')).toBe('private, no-store')
    }
    // The untouched URL still works, also as a HEAD; other methods are not served.
    expect((await fetchPublic(url)).status).toBe(200)
    expect((await fetchPublic(url, { method: 'POST' })).status).toBe(404)
  })

  it('sign: 404 for another school, a pending object, an image, an unknown key; deleted files stop being served', async () => {
    const path = await readyPdf()
    const other = (await createTestSchool()).tenantId
    expect((await sign(other, path)).status).toBe(404)
    const pending = await initiateFile(tenantId, { context: 'file_product', filename: 'p.pdf', contentType: 'application/pdf', data: PDF })
    await putFile(pending.body, PDF)
    expect((await sign(tenantId, pending.body.path)).status).toBe(404)
    const image = await upload(tenantId, { context: 'cover', filename: 'c.png', contentType: 'image/png', data: PNG })
    expect((await sign(tenantId, image.init.path)).status).toBe(404)
    expect((await sign(tenantId, path.replace(/[a-z2-7]{26}/, 'a'.repeat(26)))).status).toBe(404)
    expect((await sign(tenantId, path, 'download' as 'inline')).status).toBe(404)
    expect((await filesApi(tenantId, 'sign', { path }, testEnv.MEDIA_ORIGIN)).status).toBe(404)
    // A signature for a pending object does not serve it either.
    const forged = `${testEnv.MEDIA_ORIGIN}${await signedFilePath(testEnv.FILE_URL_SIGNING_KEY, pending.body.path, Math.floor(Date.now() / 1000) + 60, 'attachment')}`
    expect((await fetchPublic(forged)).status).toBe(404)

    const { url } = (await sign(tenantId, path)).body
    await filesApi(tenantId, 'delete', { path, context: 'file_product' })
    expect((await fetchPublic(url)).status).toBe(404)
  })

  it('the public route never serves a private key, even ready', async () => {
    const path = await readyPdf()
    expect((await serve(path)).status).toBe(404)
    expect((await serve(path, 'HEAD')).status).toBe(404)
  })
})
