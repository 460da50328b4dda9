import { describe, expect, it } from 'vitest'
import { generateSessionToken, hashSecret, parseSessionToken, secretMatches } from './session-token.server.ts'

describe('session tokens', () => {
  it('is id.secret with 160-bit random halves, storing only the secret\'s SHA-256', () => {
    const { id, secret, token, secretHash } = generateSessionToken()
    expect(token).toBe(`${id}.${secret}`)
    expect(id).toMatch(/^[a-z2-7]{32}$/)
    expect(secretHash).toBe(hashSecret(secret))
    expect(secretHash).not.toContain(secret)
    expect(generateSessionToken().token).not.toBe(token)
  })

  it('matches the secret against the stored hash only', () => {
    const { secret, secretHash } = generateSessionToken()
    expect(secretMatches(secret, secretHash)).toBe(true)
    expect(secretMatches(generateSessionToken().secret, secretHash)).toBe(false)
    expect(secretMatches(secret, 'not-hex')).toBe(false)
  })

  it('parses only well-formed tokens', () => {
    const { token, id } = generateSessionToken()
    expect(parseSessionToken(token)?.id).toBe(id)
    for (const bad of ['', 'abc', `${token}.x`, token.toUpperCase(), null, undefined]) expect(parseSessionToken(bad)).toBeNull()
  })
})
