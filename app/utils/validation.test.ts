import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { HOSTILE_REDIRECTS, SAFE_REDIRECTS } from '../../tests/integration/redirect-corpus.ts'
import { email, parseWith, password, redirectTarget, safeRedirect, text, withConfirmation } from './validation.ts'

describe('field schemas', () => {
  it('answers translation keys, not English', () => {
    const schema = z.object({ name: text({ max: 5 }), email: email(), password: password() })
    const result = parseWith(schema, { name: '  toolong  ', email: 'nope', password: '123' })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.errors).toEqual({
      name: { key: 'validation.max_chars', values: { count: 5 } },
      email: { key: 'validation.email' },
      password: { key: 'validation.password_min', values: { count: 6 } },
    })
  })

  it('treats missing and blank as required, trims text and lower-cases email', () => {
    const schema = z.object({ name: text({ max: 10 }), email: email() })
    const missing = parseWith(schema, {})
    expect(missing.ok || missing.errors).toEqual({ name: { key: 'validation.required' }, email: { key: 'validation.required' } })
    const ok = parseWith(schema, { name: '  Ada ', email: ' Ada@Example.COM ' })
    expect(ok).toEqual({ ok: true, data: { name: 'Ada', email: 'ada@example.com' } })
  })

  it('rejects control characters in text', () => {
    const result = parseWith(z.object({ name: text({ max: 20 }) }), { name: 'a\u0000b' })
    expect(result.ok).toBe(false)
  })

  it('checks the confirmation and never echoes passwords back', () => {
    const result = parseWith(withConfirmation({}), { password: 'secret1', password_confirmation: 'secret2', note: 'kept' })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.errors.password_confirmation).toEqual({ key: 'validation.confirmed' })
    expect(result.values).toEqual({ note: 'kept' })
  })
})

describe('safeRedirect', () => {
  const ORIGIN = 'https://school.example'

  it('keeps same-origin paths, as the parsed URL serialises them', () => {
    for (const [input, target] of SAFE_REDIRECTS) expect(safeRedirect(input, '/home', ORIGIN), input).toBe(target)
    expect(safeRedirect('/panel', '/home', new Request(`${ORIGIN}/login`))).toBe('/panel')
    expect(safeRedirect('/panel', '/home', new URL(`${ORIGIN}/x`))).toBe('/panel')
  })

  it(`refuses every one of ${HOSTILE_REDIRECTS.length} hostile values`, () => {
    expect(HOSTILE_REDIRECTS.length).toBeGreaterThanOrEqual(100)
    for (const bad of HOSTILE_REDIRECTS) expect(redirectTarget(bad, ORIGIN), JSON.stringify(bad.slice(0, 80))).toBeNull()
    for (const bad of HOSTILE_REDIRECTS) expect(safeRedirect(bad, '/home', ORIGIN)).toBe('/home')
  })

  it('refuses what is not a string, and falls back when the origin cannot be parsed', () => {
    for (const bad of [undefined, null, 42, {}, ['/panel']]) expect(safeRedirect(bad, '/home', ORIGIN)).toBe('/home')
    expect(safeRedirect('/panel', '/home', 'null')).toBe('/home')
  })

  it('answers only values a Location header can carry and a browser resolves on the same origin', () => {
    for (const value of [...HOSTILE_REDIRECTS, ...SAFE_REDIRECTS.map(([input]) => input)]) {
      const target = safeRedirect(value, '/fallback', ORIGIN)
      expect(() => new Headers({ Location: target })).not.toThrow()
      expect(new URL(target, ORIGIN).origin).toBe(ORIGIN)
      expect(target).toMatch(/^\/(?![/\\])[\x21-\x7e]*$/)
    }
  })
})
