import { describe, expect, it } from 'vitest'
import { hashPassword, verifyPassword } from './password.server.ts'

describe('scrypt passwords (node:crypto in workerd)', () => {
  it('verifies the right password only, with a fresh salt each time', async () => {
    const a = await hashPassword('correct horse')
    const b = await hashPassword('correct horse')
    expect(a).toMatch(/^scrypt\$16384\$8\$5\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/)
    expect(a).not.toBe(b)
    expect(await verifyPassword('correct horse', a)).toBe(true)
    expect(await verifyPassword('correct horse!', a)).toBe(false)
  })

  it('treats Unicode forms of one password as the same password', async () => {
    const hash = await hashPassword('zażółć')
    expect(await verifyPassword('zażółć'.normalize('NFD'), hash)).toBe(true)
  })

  it('refuses malformed stored hashes', async () => {
    expect(await verifyPassword('x', 'bcrypt$whatever')).toBe(false)
    expect(await verifyPassword('x', '')).toBe(false)
  })
})
