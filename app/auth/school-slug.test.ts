import { describe, expect, it } from 'vitest'
import { suggestSlug } from './school-slug.ts'

describe('suggestSlug', () => {
  it('folds accents and Polish letters, joins words with single hyphens', () => {
    expect(suggestSlug('Szkoła Gotowania Łódź')).toBe('szkola-gotowania-lodz')
    expect(suggestSlug('  Maria’s   Yoga & Pilates!! ')).toBe('maria-s-yoga-pilates')
    expect(suggestSlug('Żółć 2026')).toBe('zolc-2026')
  })

  it('keeps at most 40 characters and never ends on a hyphen', () => {
    const slug = suggestSlug('The Very Long Name Of A School About Many Things')
    expect(slug.length).toBeLessThanOrEqual(40)
    expect(slug).toBe('the-very-long-name-of-a-school-about-man')
    expect(suggestSlug('a'.repeat(39) + ' b')).toBe('a'.repeat(39))
    expect(suggestSlug('!!!')).toBe('')
  })
})
