import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { email, parseWith, password, safeRedirect, text, withConfirmation } from './validation.ts'

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
  it('allows same-site paths only', () => {
    expect(safeRedirect('/panel?x=1')).toBe('/panel?x=1')
    for (const bad of ['//evil.example', '/\\evil.example', 'https://evil.example', 'javascript:alert(1)', undefined, 42]) {
      expect(safeRedirect(bad, '/home')).toBe('/home')
    }
  })
})
