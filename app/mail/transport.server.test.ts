import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createResendPeer } from '#tests/peers/resend-peer.ts'
import { getMailTransport, MailConfigError, MailSendError, OutboxOnlyTransport, parseRetryAfter, ResendTransport, type MailMessage } from './transport.server.ts'

const peer = createResendPeer({ apiKey: 're_good_key' })

function message(overrides: Partial<MailMessage> = {}): MailMessage {
  return {
    from: 'Coursefront <no-reply@coursefront.test>',
    to: 'ada@example.com',
    subject: 'Reset your password',
    text: 'Hello Ada',
    html: '<p>Hello Ada</p>',
    idempotencyKey: `outbox-${crypto.randomUUID()}`,
    ...overrides,
  }
}

function transport(apiKey = 're_good_key') {
  return new ResendTransport({ apiKey, baseUrl: peer.baseUrl, fetch: peer.fetch })
}

async function sendError(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(MailSendError)
  return error as MailSendError
}

beforeEach(() => peer.reset())
afterEach(() => vi.unstubAllGlobals())

describe('ResendTransport against the Resend peer', () => {
  it('posts the documented request and returns the email id', async () => {
    const msg = message()
    const result = await transport().send(msg)

    expect(result.id).toEqual(peer.accepted[0].id)
    const [req] = peer.requests
    expect(req.method).toBe('POST')
    expect(req.path).toBe('/emails')
    expect(req.headers.authorization).toBe('Bearer re_good_key')
    expect(req.headers['content-type']).toBe('application/json')
    expect(req.headers['idempotency-key']).toBe(msg.idempotencyKey)
    expect(JSON.parse(req.body)).toEqual({ from: msg.from, to: ['ada@example.com'], subject: msg.subject, html: msg.html, text: msg.text })
    expect(peer.accepted).toEqual([{ id: result.id, from: msg.from, to: ['ada@example.com'], subject: msg.subject, html: msg.html, text: msg.text, idempotencyKey: msg.idempotencyKey }])
  })

  it('sends one email for a repeated idempotency key and gets the same id back', async () => {
    const msg = message()
    const first = await transport().send(msg)
    const second = await transport().send(msg)
    expect(second.id).toBe(first.id)
    expect(peer.requests).toHaveLength(2)
    expect(peer.accepted).toHaveLength(1)
  })

  it('treats a reused key with another payload (409) as permanent', async () => {
    const msg = message()
    await transport().send(msg)
    const error = await sendError(transport().send({ ...msg, subject: 'Something else' }))
    expect(error).toMatchObject({ status: 409, code: 'invalid_idempotent_request', retryable: false })
    expect(peer.accepted).toHaveLength(1)
  })

  it('treats a missing key (401) and an invalid key (403) as permanent', async () => {
    const stripAuth = (input: RequestInfo | URL, init?: RequestInit) => {
      const headers = new Headers(init?.headers)
      headers.delete('Authorization')
      return peer.fetch(input, { ...init, headers })
    }
    const missing = await sendError(new ResendTransport({ apiKey: 're_good_key', baseUrl: peer.baseUrl, fetch: stripAuth }).send(message()))
    expect(missing).toMatchObject({ status: 401, code: 'missing_api_key', retryable: false })

    const invalid = await sendError(transport('re_wrong_key').send(message()))
    expect(invalid).toMatchObject({ status: 403, code: 'invalid_api_key', retryable: false })
    expect(peer.accepted).toHaveLength(0)
  })

  it('treats a validation error (422) as permanent', async () => {
    const error = await sendError(transport().send(message({ to: 'not-an-address' })))
    expect(error).toMatchObject({ status: 422, code: 'validation_error', retryable: false })
    expect(error.message).toContain('to')
    expect(peer.accepted).toHaveLength(0)
  })

  it('retries server errors (5xx) and then succeeds with the same key', async () => {
    peer.failNext(1, 500)
    const msg = message()
    const error = await sendError(transport().send(msg))
    expect(error).toMatchObject({ status: 500, retryable: true, retryAfterSeconds: null })

    const ok = await transport().send(msg)
    expect(ok.id).toBe(peer.accepted[0].id)
    expect(peer.accepted).toHaveLength(1)
  })

  it('retries rate limiting (429) and reads Retry-After', async () => {
    peer.failNext(1, 429, { retryAfter: 7 })
    const error = await sendError(transport().send(message()))
    expect(error).toMatchObject({ status: 429, code: 'rate_limit_exceeded', retryable: true, retryAfterSeconds: 7 })
  })

  it('retries when Resend cannot be reached', async () => {
    const offline = new ResendTransport({ apiKey: 're_good_key', fetch: async () => Promise.reject(new TypeError('network connection lost')) })
    const error = await sendError(offline.send(message()))
    expect(error).toMatchObject({ status: null, retryable: true })
  })

  it('uses https://api.resend.com by default and tolerates a trailing slash in the base URL', async () => {
    const urls: string[] = []
    const recording = async (input: RequestInfo | URL, init?: RequestInit) => {
      urls.push(new Request(input, init).url)
      return Response.json({ id: 'email-1' })
    }
    await new ResendTransport({ apiKey: 'k', fetch: recording }).send(message())
    await new ResendTransport({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9999/', fetch: recording }).send(message())
    expect(urls).toEqual(['https://api.resend.com/emails', 'http://127.0.0.1:9999/emails'])
  })
})

describe('the Resend peer enforces the protocol', () => {
  async function post(body: unknown, headers: Record<string, string> = {}) {
    const res = await peer.fetch('https://resend-peer.test/emails', {
      method: 'POST',
      headers: { Authorization: 'Bearer re_good_key', 'Content-Type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })
    return { status: res.status, json: (await res.json()) as Record<string, unknown> }
  }
  const valid = { from: 'School <no-reply@school.test>', to: 'ada@example.com', subject: 'Hi', text: 'Hello' }

  it('accepts a string or an array of up to 50 recipients', async () => {
    expect((await post(valid)).status).toBe(200)
    expect((await post({ ...valid, to: Array.from({ length: 50 }, (_, i) => `u${i}@example.com`) })).status).toBe(200)
    const tooMany = await post({ ...valid, to: Array.from({ length: 51 }, (_, i) => `u${i}@example.com`) })
    expect(tooMany).toMatchObject({ status: 422, json: { statusCode: 422, name: 'validation_error' } })
  })

  it('rejects a body without subject, without any content, or that is not JSON', async () => {
    const { subject: _subject, ...noSubject } = valid
    expect(await post(noSubject)).toMatchObject({ status: 422, json: { name: 'missing_required_field' } })
    const { text: _text, ...noContent } = valid
    expect(await post(noContent)).toMatchObject({ status: 422, json: { name: 'validation_error' } })
    expect(await post('{not json')).toMatchObject({ status: 422, json: { name: 'validation_error' } })
    expect(peer.accepted).toHaveLength(0)
  })

  it('checks the idempotency key length', async () => {
    expect(await post(valid, { 'Idempotency-Key': 'x'.repeat(257) })).toMatchObject({ status: 400, json: { name: 'invalid_idempotency_key' } })
  })

  it('answers 404/405 for anything but POST /emails', async () => {
    expect((await peer.fetch('https://resend-peer.test/domains')).status).toBe(404)
    expect((await peer.fetch('https://resend-peer.test/emails')).status).toBe(405)
  })
})

describe('getMailTransport', () => {
  it('sends nothing in outbox mode', async () => {
    const outbox = getMailTransport({ MAIL_TRANSPORT: 'outbox' })
    expect(outbox).toBeInstanceOf(OutboxOnlyTransport)
    expect(await outbox.send(message())).toEqual({ id: null })
  })

  it('builds Resend from RESEND_API_KEY and RESEND_API_URL', async () => {
    const resend = getMailTransport({ MAIL_TRANSPORT: 'resend', RESEND_API_KEY: 're_good_key', RESEND_API_URL: peer.baseUrl }, { fetch: peer.fetch })
    expect(resend).toBeInstanceOf(ResendTransport)
    const { id } = await resend.send(message())
    expect(id).toBe(peer.accepted[0].id)
  })

  it('uses the global fetch and the configured URL when no fetch is injected (production)', async () => {
    vi.stubGlobal('fetch', peer.fetch)
    const { id } = await getMailTransport({ MAIL_TRANSPORT: 'resend', RESEND_API_KEY: 're_good_key', RESEND_API_URL: 'https://mail-relay.example' }).send(message())
    expect(id).toBe(peer.accepted[0].id)
    expect(new URL(peer.requests[0].url).href).toBe('https://mail-relay.example/emails')
  })

  it('refuses a missing API key or an unknown transport', () => {
    expect(() => getMailTransport({ MAIL_TRANSPORT: 'resend' })).toThrow(MailConfigError)
    expect(() => getMailTransport({ MAIL_TRANSPORT: 'smtp' })).toThrow(/Unknown MAIL_TRANSPORT "smtp"/)
  })
})

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    const now = Date.parse('2026-05-01T10:00:00Z')
    expect(parseRetryAfter('30', now)).toBe(30)
    expect(parseRetryAfter('Fri, 01 May 2026 10:01:00 GMT', now)).toBe(60)
    expect(parseRetryAfter('soon', now)).toBeNull()
    expect(parseRetryAfter(null, now)).toBeNull()
  })
})
