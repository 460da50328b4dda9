import { describe, expect, it } from 'vitest'
import { signWebhookBody, verifyWebhookSignature } from './signature.ts'

describe('webhook signature', () => {
  const secret = 'whsec_test_secret'
  const body = '{"id":"evt_1","type":"student.paid","created":1767225600,"data":{"totalAmount":12300}}'

  it('is t={unix},v1={hex HMAC-SHA256(secret, "{t}.{body}")} — the same as an independent HMAC', async () => {
    const header = await signWebhookBody(secret, body, 1767225600)
    const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
    const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`1767225600.${body}`)))
    expect(header).toBe(`t=1767225600,v1=${[...mac].map((b) => b.toString(16).padStart(2, '0')).join('')}`)
  })

  it('verifies within 5 minutes, refuses a changed byte, another secret, an old or missing timestamp', async () => {
    const header = await signWebhookBody(secret, body, 1767225600)
    expect(await verifyWebhookSignature(secret, header, body, 1767225600 + 300)).toBe(true)
    expect(await verifyWebhookSignature(secret, header, body, 1767225600 - 300)).toBe(true)
    expect(await verifyWebhookSignature(secret, header, body, 1767225600 + 301)).toBe(false)
    expect(await verifyWebhookSignature(secret, header, body.replace('12300', '12301'), 1767225600)).toBe(false)
    expect(await verifyWebhookSignature('whsec_other', header, body, 1767225600)).toBe(false)
    expect(await verifyWebhookSignature(secret, header.replace(/t=\d+/, 't=1767225601'), body, 1767225600)).toBe(false)
    expect(await verifyWebhookSignature(secret, header.replace(/t=\d+,/, ''), body, 1767225600)).toBe(false)
    expect(await verifyWebhookSignature(secret, null, body, 1767225600)).toBe(false)
    // Any of several v1 values may match (secret rotation).
    expect(await verifyWebhookSignature(secret, `${header.replace(/v1=/, 'v1=00,v1=')}`, body, 1767225600)).toBe(true)
  })
})
