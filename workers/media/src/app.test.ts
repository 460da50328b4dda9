import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import type { InitiateBody } from '#app/media/contract.ts'
import { createTestSchool } from '#tests/factories.ts'
import type { MediaWorkerEnv } from './env.ts'
import worker from './index.ts'
import { ABANDONED_AFTER_MS } from './scheduled.ts'
import { api, bytes, EXE, expectNothingStored, freshSchoolAndStorage, initiate, JPEG, mediaRows, PNG, PNG_WITH_HTML, put, r2Keys, serve, SVG_SAFE, SVG_SCRIPT, testEnv, upload } from './test-helpers.ts'

let tenantId: string
beforeEach(async () => {
  tenantId = await freshSchoolAndStorage()
})

describe('full flow', () => {
  it('initiate → presigned PUT through the S3 peer → complete → public GET', async () => {
    const { init, complete } = await upload(tenantId, { context: 'post_image', filename: 'photo.png', contentType: 'image/png', data: PNG })
    expect(init.path).toMatch(new RegExp(`^tenants/${tenantId}/post_image/[a-z2-7]{26}\\.png$`))
    expect(init.downloadUrl).toBe(`http://media.localhost:8787/${init.path}`)
    expect(init.headers).toEqual({ 'Content-Type': 'image/png' })
    const url = new URL(init.uploadUrl)
    expect(url.origin).toBe('http://s3.localhost:8787')
    expect(url.pathname).toBe(`/coursefront-media/${init.path}`)
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host')
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300')
    expect(complete.status).toBe(200)
    expect(complete.body).toEqual({ path: init.path, url: init.downloadUrl, contentType: 'image/png', size: PNG.length })

    const res = await serve(init.path)
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toBe('image/png')
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff')
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable')
    expect(res.headers.get('Content-Security-Policy')).toBeNull()
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG)
    expect(await mediaRows()).toEqual([{ key: init.path, status: 'ready' }])
  })

  it('serves a safe SVG sandboxed', async () => {
    const { init, complete } = await upload(tenantId, { context: 'cover', filename: 'logo.svg', contentType: 'image/svg+xml', data: SVG_SAFE })
    expect(complete.status).toBe(200)
    const res = await serve(init.path)
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toBe('image/svg+xml')
    expect(res.headers.get('Content-Security-Policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox")
    expect(res.headers.get('Content-Disposition')).toBe('inline')
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff')
  })

  it('delete answers true and removes the object; a second delete is 404', async () => {
    const { init } = await upload(tenantId, { context: 'avatar', filename: 'me.jpg', contentType: 'image/jpeg', data: JPEG })
    expect(await api(tenantId, 'delete', { path: init.path, context: 'avatar' })).toEqual({ status: 200, body: true })
    await expectNothingStored()
    expect((await serve(init.path)).status).toBe(404)
    expect((await api(tenantId, 'delete', { path: init.path, context: 'avatar' })).status).toBe(404)
  })

  it('delete with the wrong context is 404 and keeps the object', async () => {
    const { init } = await upload(tenantId, { context: 'avatar', filename: 'me.jpg', contentType: 'image/jpeg', data: JPEG })
    expect((await api(tenantId, 'delete', { path: init.path, context: 'cover' })).status).toBe(404)
    expect(await r2Keys()).toEqual([init.path])
  })

  it('a pending (not completed) object is not served', async () => {
    const init = await initiate(tenantId, { context: 'cover', filename: 'a.png', contentType: 'image/png', data: PNG })
    expect((await put(init.body, PNG)).status).toBe(200)
    expect((await serve(init.body.path)).status).toBe(404)
  })
})

describe('refusals leave nothing in R2 or D1', () => {
  it('bad extension at initiate (and a filename that disagrees with the extension)', async () => {
    for (const [filename, extension, context] of [
      ['virus.exe', 'exe', 'cover'],
      ['doc.pdf', 'pdf', 'image'],
      ['a.svg', 'svg', 'post_image'],
      ['a.webp', 'webp', 'post_image'],
      ['a.png.exe', 'png', 'cover'],
    ]) {
      const res = await api(tenantId, 'initiate', { context, filename, extension, size: 10, contentType: 'image/png' })
      expect(res, `${filename} ${context}`).toEqual({ status: 400, body: { error: 'media.error.bad_extension' } })
    }
    await expectNothingStored()
  })

  it('a 10 MB image for a 600 KB context: 413 with the max size', async () => {
    const res = await api(tenantId, 'initiate', { context: 'post_image', filename: 'big.jpg', extension: 'jpg', size: 10 * 1024 * 1024, contentType: 'image/jpeg' })
    expect(res).toEqual({ status: 413, body: { error: 'media.error.max_size', values: { size: 0.6 } } })
    await expectNothingStored()
  })

  it('a 0-byte file: refused at initiate', async () => {
    const res = await api(tenantId, 'initiate', { context: 'post_image', filename: 'empty.png', extension: 'png', size: 0, contentType: 'image/png' })
    expect(res).toEqual({ status: 400, body: { error: 'media.error.empty' } })
    await expectNothingStored()
  })

  it('content type inconsistent with the extension', async () => {
    const res = await api(tenantId, 'initiate', { context: 'cover', filename: 'a.png', extension: 'png', size: 10, contentType: 'text/html' })
    expect(res).toEqual({ status: 400, body: { error: 'media.error.type_mismatch' } })
    await expectNothingStored()
  })

  const refusedAfterUpload: [string, { context: string; filename: string; contentType: string; data: Uint8Array }, string][] = [
    ['a PNG renamed .gif with HTML inside', { context: 'post_image', filename: 'cat.gif', contentType: 'image/gif', data: PNG_WITH_HTML }, 'media.error.type_mismatch'],
    ['an .exe renamed .jpg', { context: 'post_image', filename: 'holiday.jpg', contentType: 'image/jpeg', data: EXE }, 'media.error.unsupported'],
    ['an SVG with a script', { context: 'cover', filename: 'logo.svg', contentType: 'image/svg+xml', data: SVG_SCRIPT }, 'media.error.unsafe_svg'],
    ['a real PNG with HTML in its head', { context: 'cover', filename: 'x.png', contentType: 'image/png', data: PNG_WITH_HTML }, 'media.error.unsupported'],
    ['HTML named .gif', { context: 'post_image', filename: 'x.gif', contentType: 'image/gif', data: bytes('<html><script>alert(1)</script></html>') }, 'media.error.unsupported'],
  ]
  for (const [name, file, error] of refusedAfterUpload) {
    it(`${name}: 422 ${error} on complete, object and row deleted`, async () => {
      const { complete, init } = await upload(tenantId, file)
      expect(complete).toEqual({ status: 422, body: { error } })
      await expectNothingStored()
      expect((await serve(init.path)).status).toBe(404)
    })
  }

  it('complete without any PUT: 422 upload_failed, row removed', async () => {
    const init = await initiate(tenantId, { context: 'cover', filename: 'a.png', contentType: 'image/png', data: PNG })
    expect(await api(tenantId, 'complete', { path: init.body.path })).toEqual({ status: 422, body: { error: 'media.error.upload_failed' } })
    await expectNothingStored()
  })

  it('a bigger body than initiated is refused by the peer (content-length is signed)', async () => {
    const init = await initiate(tenantId, { context: 'post_image', filename: 'a.png', contentType: 'image/png', data: PNG })
    const res = await put(init.body, bytes(PNG, new Uint8Array(10 * 1024 * 1024)))
    expect(res.status).toBe(403)
    expect(await res.text()).toContain('<Code>SignatureDoesNotMatch</Code>')
    expect(await r2Keys()).toEqual([])
  })

  it('an object too big for the context (written behind our back) is refused at complete', async () => {
    const init = await initiate(tenantId, { context: 'post_image', filename: 'a.png', contentType: 'image/png', data: PNG })
    await testEnv.MEDIA.put(init.body.path, bytes(PNG, new Uint8Array(700 * 1024)))
    expect(await api(tenantId, 'complete', { path: init.body.path })).toEqual({ status: 422, body: { error: 'media.error.max_size', values: { size: 0.6 } } })
    await expectNothingStored()
  })
})

describe('S3 peer', () => {
  let init: InitiateBody
  beforeEach(async () => {
    init = (await initiate(tenantId, { context: 'cover', filename: 'a.png', contentType: 'image/png', data: PNG })).body
  })

  it('refuses a tampered signature, another key, another content type', async () => {
    const tampered = init.uploadUrl.replace(/X-Amz-Signature=([0-9a-f])/, (_, c: string) => `X-Amz-Signature=${c === '0' ? '1' : '0'}`)
    for (const [url, headers] of [
      [tampered, init.headers],
      [init.uploadUrl.replace(`/tenants/${tenantId}/`, '/tenants/other/'), init.headers],
      [init.uploadUrl, { 'Content-Type': 'text/html' }],
    ] as const) {
      const res = await put(init, PNG, headers, url)
      expect(res.status).toBe(403)
      expect(res.headers.get('Content-Type')).toBe('application/xml')
      expect(await res.text()).toMatch(/<Error><Code>SignatureDoesNotMatch<\/Code><Message>/)
    }
    expect(await r2Keys()).toEqual([])
  })

  it('refuses an expired URL with AccessDenied', async () => {
    const url = new URL(init.uploadUrl)
    const { presignUrl } = await import('#app/media/sigv4.server.ts')
    const old = await presignUrl({
      method: 'PUT',
      endpoint: url.origin,
      bucket: 'coursefront-media',
      key: init.path,
      accessKeyId: testEnv.S3_ACCESS_KEY_ID,
      secretAccessKey: testEnv.S3_SECRET_ACCESS_KEY,
      expiresSeconds: 300,
      signedHeaders: { 'content-type': 'image/png', 'content-length': String(PNG.length) },
      now: Date.now() - 301_000,
    })
    const res = await put(init, PNG, old.headers, old.url)
    expect(res.status).toBe(403)
    expect(await res.text()).toContain('<Code>AccessDenied</Code><Message>Request has expired</Message>')
    expect(await r2Keys()).toEqual([])
  })

  it('answers the CORS preflight for school origins only', async () => {
    const preflight = (origin: string, headers = 'content-type') =>
      testEnv.DEV_PEERS!.fetch(init.uploadUrl, { method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'PUT', 'Access-Control-Request-Headers': headers } })
    const ok = await preflight('http://school-a.localhost:8787')
    expect(ok.status).toBe(204)
    expect(ok.headers.get('Access-Control-Allow-Origin')).toBe('http://school-a.localhost:8787')
    expect(ok.headers.get('Access-Control-Allow-Methods')).toBe('PUT')
    expect(ok.headers.get('Access-Control-Allow-Headers')).toBe('content-type')
    expect((await preflight('http://evil.example')).status).toBe(403)
    expect((await preflight('http://school-a.localhost:8787', 'content-type,authorization')).status).toBe(403)
    const res = await testEnv.DEV_PEERS!.fetch(init.uploadUrl, { method: 'PUT', headers: { ...init.headers, Origin: 'http://school-a.localhost:8787' }, body: PNG as unknown as BodyInit })
    expect(res.status).toBe(200)
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('http://school-a.localhost:8787')
  })
})

describe('tenant isolation in the worker', () => {
  it("another school can neither complete, delete nor see a school's object", async () => {
    const other = (await createTestSchool()).tenantId
    const { init } = await upload(tenantId, { context: 'cover', filename: 'a.png', contentType: 'image/png', data: PNG })
    expect((await api(other, 'complete', { path: init.path })).status).toBe(404)
    expect((await api(other, 'delete', { path: init.path, context: 'cover' })).status).toBe(404)
    expect(await r2Keys()).toEqual([init.path])
  })

  it('the API is unreachable through the public media origin', async () => {
    const { init } = await upload(tenantId, { context: 'cover', filename: 'a.png', contentType: 'image/png', data: PNG })
    expect((await api(tenantId, 'delete', { path: init.path, context: 'cover' }, testEnv.MEDIA_ORIGIN)).status).toBe(404)
    expect(await r2Keys()).toEqual([init.path])
  })

  it('serves nothing outside the key shape', async () => {
    for (const path of ['', 'tenants/', `tenants/${tenantId}/cover/../x.png`, 'etc/passwd', 'favicon.ico']) expect((await serve(path)).status).toBe(404)
  })
})

describe('cron', () => {
  it('removes pending uploads older than an hour from R2 and D1, keeps fresh and ready ones', async () => {
    const { init: ready } = await upload(tenantId, { context: 'cover', filename: 'a.png', contentType: 'image/png', data: PNG })
    const old = (await initiate(tenantId, { context: 'cover', filename: 'b.png', contentType: 'image/png', data: PNG })).body
    await put(old, PNG)
    const fresh = (await initiate(tenantId, { context: 'cover', filename: 'c.png', contentType: 'image/png', data: PNG })).body
    await testEnv.DB_SHARD_0!.prepare('UPDATE media_objects SET created_at = created_at - ? WHERE key IN (?, ?)').bind(ABANDONED_AFTER_MS + 1000, old.path, ready.path).run()
    const ctx = createExecutionContext()
    await (worker.scheduled as ExportedHandlerScheduledHandler<MediaWorkerEnv>)(createScheduledController({ scheduledTime: Date.now(), cron: '*/10 * * * *' }), testEnv, ctx)
    await waitOnExecutionContext(ctx)
    expect((await r2Keys()).sort()).toEqual([ready.path].sort())
    expect((await mediaRows()).map((r) => r.key).sort()).toEqual([ready.path, fresh.path].sort())
  })
})
