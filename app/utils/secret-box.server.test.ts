import { encodeBase64 } from '@oslojs/encoding'
import { describe, expect, it } from 'vitest'
import { maskSecret, openSecret, sealSecret } from './secret-box.server.ts'

const key = encodeBase64(new Uint8Array(32).map((_, i) => i + 1))
const otherKey = encodeBase64(new Uint8Array(32).fill(7))

describe('secret box', () => {
  it('round-trips, with a fresh IV each time', async () => {
    const a = await sealSecret(key, 'tenant-a', 'payu.client_secret', 's3cr3t-value')
    const b = await sealSecret(key, 'tenant-a', 'payu.client_secret', 's3cr3t-value')
    expect(a).not.toBe(b)
    expect(a).toMatch(/^v1\.[\w-]{16}\.[\w-]+$/)
    expect(a).not.toContain('s3cr3t')
    expect(await openSecret(key, 'tenant-a', 'payu.client_secret', a)).toBe('s3cr3t-value')
  })

  it('opens only for the same key, tenant and purpose, and refuses altered values', async () => {
    const sealed = await sealSecret(key, 'tenant-a', 'stripe.secret_key', 'sk_live_123')
    expect(await openSecret(otherKey, 'tenant-a', 'stripe.secret_key', sealed)).toBeNull()
    expect(await openSecret(key, 'tenant-b', 'stripe.secret_key', sealed)).toBeNull()
    expect(await openSecret(key, 'tenant-a', 'stripe.webhook_secret', sealed)).toBeNull()
    const [v, iv, data] = sealed.split('.') as [string, string, string]
    const flipped = `${v}.${iv}.${data.slice(0, -2)}${data.at(-2) === 'A' ? 'B' : 'A'}${data.at(-1)}`
    expect(await openSecret(key, 'tenant-a', 'stripe.secret_key', flipped)).toBeNull()
    expect(await openSecret(key, 'tenant-a', 'stripe.secret_key', 'v2.x.y')).toBeNull()
    expect(await openSecret(key, 'tenant-a', 'stripe.secret_key', 'plain text')).toBeNull()
  })

  it('refuses a key of the wrong size and masks all but the last 4 characters', async () => {
    await expect(sealSecret(encodeBase64(new Uint8Array(16)), 't', 'p', 'x')).rejects.toThrow('32 bytes')
    expect(maskSecret('sk_live_abcdef1234')).toBe('••••1234')
    expect(maskSecret('abc')).toBe('••••')
  })
})
