import { describe, expect, it } from 'vitest'
import { MAX_EXPIRES_SECONDS, amzDate, presignDetailed, presignUrl, uriEncode, verifyPresignedRequest, type PresignOptions } from './sigv4.server.ts'

describe('AWS published example (docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html)', () => {
  // GET examplebucket/test.txt, valid 86400 s from 2013-05-24T00:00:00Z, us-east-1.
  const example: PresignOptions = {
    method: 'GET',
    endpoint: 'https://s3.amazonaws.com',
    bucket: 'examplebucket',
    key: 'test.txt',
    addressing: 'virtual-hosted',
    accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
    secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    region: 'us-east-1',
    expiresSeconds: 86400,
    now: Date.UTC(2013, 4, 24, 0, 0, 0),
  }

  it('builds the documented canonical request, string to sign, signature and URL', async () => {
    const signed = await presignDetailed(example)
    expect(signed.canonicalRequest).toBe(
      [
        'GET',
        '/test.txt',
        'X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host',
        'host:examplebucket.s3.amazonaws.com',
        '',
        'host',
        'UNSIGNED-PAYLOAD',
      ].join('\n'),
    )
    expect(signed.stringToSign).toBe(
      ['AWS4-HMAC-SHA256', '20130524T000000Z', '20130524/us-east-1/s3/aws4_request', '3bfa292879f6447bbcda7001decf97f4a54dc650c8942174ae0a9121cf58ad04'].join('\n'),
    )
    expect(signed.signature).toBe('aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404')
    expect(signed.url).toBe(
      'https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404',
    )
    expect(signed.expiresAt).toBe(Date.UTC(2013, 4, 25, 0, 0, 0))
  })

  it('verifies its own example within the window and not after', async () => {
    const { url } = await presignUrl(example)
    const creds = { accessKeyId: example.accessKeyId, secretAccessKey: example.secretAccessKey, region: 'us-east-1' }
    expect(await verifyPresignedRequest(new Request(url), { ...creds, now: Date.UTC(2013, 4, 24, 12) })).toMatchObject({ ok: true, method: 'GET', path: '/test.txt' })
    expect(await verifyPresignedRequest(new Request(url), { ...creds, now: Date.UTC(2013, 4, 25, 0, 0, 1) })).toEqual({ ok: false, reason: 'expired' })
  })
})

describe('encoding', () => {
  it('keeps only RFC 3986 unreserved characters', () => {
    expect(uriEncode("a b/c~d_e.f-g!*'()+=&")).toBe('a%20b%2Fc~d_e.f-g%21%2A%27%28%29%2B%3D%26')
    expect(uriEncode('tenants/t1/x y.jpg', true)).toBe('tenants/t1/x%20y.jpg')
    expect(uriEncode('żółw')).toBe('%C5%BC%C3%B3%C5%82w')
  })

  it('formats X-Amz-Date', () => {
    expect(amzDate(Date.UTC(2026, 0, 2, 3, 4, 5, 678))).toBe('20260102T030405Z')
  })
})

describe('R2 presigned uploads', () => {
  const creds = { accessKeyId: 'r2-access-key-id', secretAccessKey: 'r2-secret-access-key' }
  const NOW = Date.UTC(2026, 4, 1, 10, 0, 0)
  const base = {
    ...creds,
    method: 'PUT',
    endpoint: 'https://0123456789abcdef.r2.cloudflarestorage.com',
    bucket: 'coursefront-media',
    key: 'tenants/t1/cover/abcdefghijklmnopqrstuvwxyz.jpg',
    expiresSeconds: 600,
    signedHeaders: { 'Content-Type': 'image/jpeg', 'content-length': '1234' },
    now: NOW,
  } satisfies PresignOptions
  const verify = (request: Request, extra: Partial<Parameters<typeof verifyPresignedRequest>[1]> = {}) =>
    verifyPresignedRequest(request, { ...creds, now: NOW + 60_000, ...extra })
  const put = (url: string, headers: Record<string, string>) => new Request(url, { method: 'PUT', headers })

  it('signs path-style with region auto and the headers the upload must carry', async () => {
    const signed = await presignUrl(base)
    const url = new URL(signed.url)
    expect(url.host).toBe('0123456789abcdef.r2.cloudflarestorage.com')
    expect(url.pathname).toBe('/coursefront-media/tenants/t1/cover/abcdefghijklmnopqrstuvwxyz.jpg')
    expect(url.searchParams.get('X-Amz-Credential')).toBe('r2-access-key-id/20260501/auto/s3/aws4_request')
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host')
    expect(url.searchParams.get('X-Amz-Expires')).toBe('600')
    expect(signed.headers).toEqual({ 'content-type': 'image/jpeg', 'content-length': '1234' })
    expect(signed.expiresAt).toBe(NOW + 600_000)
  })

  it('round-trips through the verifier', async () => {
    const signed = await presignUrl(base)
    const result = await verify(put(signed.url, signed.headers), { requiredSignedHeaders: ['content-length', 'content-type'] })
    expect(result).toEqual({
      ok: true,
      method: 'PUT',
      path: '/coursefront-media/tenants/t1/cover/abcdefghijklmnopqrstuvwxyz.jpg',
      expiresAt: NOW + 600_000,
      signedHeaders: ['content-length', 'content-type', 'host'],
    })
  })

  it('round-trips keys that need encoding, and extra signed query parameters', async () => {
    const signed = await presignUrl({ ...base, key: "tenants/t1/file_product/zażółć (1)*.pdf", query: { partNumber: '2', uploadId: 'a+b/c=' } })
    expect(signed.url).toContain('/file_product/za%C5%BC%C3%B3%C5%82%C4%87%20%281%29%2A.pdf?')
    expect(signed.url).toContain('uploadId=a%2Bb%2Fc%3D')
    const result = await verify(put(signed.url, signed.headers))
    expect(result).toMatchObject({ ok: true, path: '/coursefront-media/tenants/t1/file_product/zażółć (1)*.pdf' })
  })

  it('refuses a tampered key, method, header, expiry, date or extra parameter', async () => {
    const signed = await presignUrl(base)
    const url = new URL(signed.url)
    const withParam = (name: string, value: string) => {
      const u = new URL(signed.url)
      u.searchParams.set(name, value)
      return u.toString()
    }
    const otherKey = signed.url.replace('/tenants/t1/', '/tenants/t2/')
    expect(await verify(put(otherKey, signed.headers))).toEqual({ ok: false, reason: 'signature' })
    expect(await verify(new Request(signed.url, { method: 'DELETE', headers: signed.headers }))).toEqual({ ok: false, reason: 'signature' })
    expect(await verify(put(signed.url, { ...signed.headers, 'content-type': 'text/html' }))).toEqual({ ok: false, reason: 'signature' })
    expect(await verify(put(signed.url, { ...signed.headers, 'content-length': '999999999' }))).toEqual({ ok: false, reason: 'signature' })
    expect(await verify(put(withParam('X-Amz-Expires', '604800'), signed.headers))).toEqual({ ok: false, reason: 'signature' })
    expect(await verify(put(withParam('X-Amz-Date', '20260501T100100Z'), signed.headers))).toEqual({ ok: false, reason: 'signature' })
    expect(await verify(put(`${signed.url}&response-content-type=text%2Fhtml`, signed.headers))).toEqual({ ok: false, reason: 'signature' })
    expect(await verify(put(withParam('X-Amz-SignedHeaders', 'host'), {}))).toEqual({ ok: false, reason: 'signature' })
    const flipped = url.searchParams.get('X-Amz-Signature')!.replace(/^./, (c) => (c === '0' ? '1' : '0'))
    expect(await verify(put(withParam('X-Amz-Signature', flipped), signed.headers))).toEqual({ ok: false, reason: 'signature' })
    // A different host (another bucket on a virtual host, a custom domain) is a different request.
    expect(await verify(put(signed.url, { ...signed.headers, host: 'media.example.com' }))).toEqual({ ok: false, reason: 'signature' })
  })

  it('refuses expired, future-dated and badly scoped URLs, and wrong secrets', async () => {
    const signed = await presignUrl(base)
    const request = () => put(signed.url, signed.headers)
    expect(await verify(request(), { now: NOW + 600_000 })).toMatchObject({ ok: true })
    expect(await verify(request(), { now: NOW + 600_001 })).toEqual({ ok: false, reason: 'expired' })
    expect(await verify(request(), { now: NOW - 301_000 })).toEqual({ ok: false, reason: 'not_yet_valid' })
    expect(await verify(request(), { secretAccessKey: 'other-secret' })).toEqual({ ok: false, reason: 'signature' })
    expect(await verify(request(), { accessKeyId: 'other-key' })).toEqual({ ok: false, reason: 'credential' })
    expect(await verify(request(), { region: 'us-east-1' })).toEqual({ ok: false, reason: 'credential' })
  })

  it('insists on signed headers being present, and on the ones the caller requires', async () => {
    const signed = await presignUrl(base)
    expect(await verify(put(signed.url, { 'content-type': 'image/jpeg' }))).toEqual({ ok: false, reason: 'headers' })
    const loose = await presignUrl({ ...base, signedHeaders: { 'content-type': 'image/jpeg' } })
    expect(await verify(put(loose.url, loose.headers))).toMatchObject({ ok: true })
    expect(await verify(put(loose.url, loose.headers), { requiredSignedHeaders: ['content-length'] })).toEqual({ ok: false, reason: 'headers' })
    const unsorted = new URL(signed.url)
    unsorted.searchParams.set('X-Amz-SignedHeaders', 'host;content-type;content-length')
    expect(await verify(put(unsorted.toString(), signed.headers))).toEqual({ ok: false, reason: 'headers' })
    const noHost = new URL(signed.url)
    noHost.searchParams.set('X-Amz-SignedHeaders', 'content-length;content-type')
    expect(await verify(put(noHost.toString(), signed.headers))).toEqual({ ok: false, reason: 'headers' })
  })

  it('refuses missing, duplicated or malformed parameters', async () => {
    const signed = await presignUrl(base)
    const without = (name: string) => {
      const u = new URL(signed.url)
      u.searchParams.delete(name)
      return u.toString()
    }
    for (const name of ['X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Date', 'X-Amz-Expires', 'X-Amz-SignedHeaders', 'X-Amz-Signature']) {
      expect(await verify(put(without(name), signed.headers)), name).toEqual({ ok: false, reason: 'missing' })
    }
    expect(await verify(put(`${signed.url}&X-Amz-Expires=60`, signed.headers))).toEqual({ ok: false, reason: 'malformed' })
    expect(await verify(put(signed.url.replace('AWS4-HMAC-SHA256', 'AWS4-HMAC-SHA1'), signed.headers))).toEqual({ ok: false, reason: 'algorithm' })
    expect(await verify(put(signed.url.replace('X-Amz-Expires=600', 'X-Amz-Expires=604801'), signed.headers))).toEqual({ ok: false, reason: 'malformed' })
    expect(await verify(put(signed.url.replace('X-Amz-Expires=600', 'X-Amz-Expires=-1'), signed.headers))).toEqual({ ok: false, reason: 'malformed' })
    expect(await verify(put(signed.url.replace('20260501T100000Z', '20260231T100000Z'), signed.headers))).toEqual({ ok: false, reason: 'malformed' })
    expect(await verify(put(`${signed.url}%ZZ`, signed.headers))).toEqual({ ok: false, reason: 'malformed' })
    expect(await verify(new Request(signed.url, { method: 'POST', headers: signed.headers }))).toEqual({ ok: false, reason: 'malformed' })
  })
})

describe('presign arguments', () => {
  const ok = {
    method: 'GET',
    endpoint: 'https://acct.r2.cloudflarestorage.com',
    bucket: 'media',
    key: 'tenants/t1/image/x.png',
    accessKeyId: 'id',
    secretAccessKey: 'secret',
    expiresSeconds: 60,
  } satisfies PresignOptions

  it('accepts 1 s to 7 days and nothing else', async () => {
    await expect(presignUrl({ ...ok, expiresSeconds: 1 })).resolves.toBeTruthy()
    await expect(presignUrl({ ...ok, expiresSeconds: MAX_EXPIRES_SECONDS })).resolves.toBeTruthy()
    for (const expiresSeconds of [0, -1, 1.5, MAX_EXPIRES_SECONDS + 1, Number.NaN]) {
      await expect(presignUrl({ ...ok, expiresSeconds }), String(expiresSeconds)).rejects.toThrow(RangeError)
    }
  })

  it('refuses keys, buckets, endpoints and headers that would sign something else', async () => {
    for (const key of ['', 'a/../b', './a', 'a//b', '/a']) await expect(presignUrl({ ...ok, key }), key).rejects.toThrow()
    for (const bucket of ['', 'A', 'a', '-media', 'media/x']) await expect(presignUrl({ ...ok, bucket }), bucket).rejects.toThrow()
    for (const endpoint of ['ftp://x', 'https://x/path', 'https://x?q=1', 'https://user:pw@x']) await expect(presignUrl({ ...ok, endpoint }), endpoint).rejects.toThrow()
    await expect(presignUrl({ ...ok, signedHeaders: { host: 'evil' } })).rejects.toThrow()
    await expect(presignUrl({ ...ok, signedHeaders: { 'x-bad': 'a\r\nb' } })).rejects.toThrow()
    await expect(presignUrl({ ...ok, method: 'POST' as never })).rejects.toThrow()
    await expect(presignUrl({ ...ok, query: { 'X-Amz-Expires': '999' } })).rejects.toThrow()
  })

  it('includes the port of a local peer in the signed host', async () => {
    const signed = await presignUrl({ ...ok, endpoint: 'http://127.0.0.1:8787' })
    expect(signed.url.startsWith('http://127.0.0.1:8787/media/tenants/t1/image/x.png?')).toBe(true)
    expect(await verifyPresignedRequest(new Request(signed.url), { accessKeyId: 'id', secretAccessKey: 'secret' })).toMatchObject({ ok: true })
  })
})
