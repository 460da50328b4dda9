import { describe, expect, it } from 'vitest'
import { AVATAR_COLORS, avatarColor, avatarInitial } from './user-avatar.tsx'

describe('avatarColor', () => {
  it('is deterministic for the same id and name', () => {
    expect(avatarColor('u1', 'Anna')).toBe(avatarColor('u1', 'Anna'))
    expect(AVATAR_COLORS).toContain(avatarColor('u1', 'Anna'))
  })

  it('depends on both the id and the name', () => {
    const byId = new Set(Array.from({ length: 40 }, (_, i) => avatarColor(`user-${i}`, 'Anna')))
    const byName = new Set(Array.from({ length: 40 }, (_, i) => avatarColor('user-1', `Name ${i}`)))
    expect(byId.size).toBeGreaterThan(3)
    expect(byName.size).toBeGreaterThan(3)
  })

  it('spreads over the palette', () => {
    const counts = new Map<string, number>()
    for (let i = 0; i < 1000; i++) counts.set(avatarColor(i, 'Jan'), (counts.get(avatarColor(i, 'Jan')) ?? 0) + 1)
    expect(counts.size).toBe(AVATAR_COLORS.length)
    for (const n of counts.values()) expect(n).toBeGreaterThan(40)
  })
})

describe('avatarInitial', () => {
  it('takes the first letter, upper-cased', () => {
    expect(avatarInitial('anna')).toBe('A')
    expect(avatarInitial('  łucja')).toBe('Ł')
    expect(avatarInitial('')).toBe('?')
  })
})
