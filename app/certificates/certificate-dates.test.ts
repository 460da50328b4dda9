// A certificate's date: the certificate's language, the school's time zone ('' = Warsaw for
// Polish, UTC otherwise), and a stale zone name falls back to UTC instead of failing the page.
import { describe, expect, it } from 'vitest'
import { formatCertificateDate } from './certificate-dates.ts'

// 23:30 UTC on 30 November: already 1 December in Warsaw.
const LATE = Date.UTC(2026, 10, 30, 23, 30)

describe('formatCertificateDate', () => {
  it('writes the date in the language, in the school’s zone or the language’s default', () => {
    expect(formatCertificateDate(LATE, 'en')).toBe('November 30, 2026')
    expect(formatCertificateDate(LATE, 'pl')).toBe('1 grudnia 2026')
    expect(formatCertificateDate(LATE, 'en', 'Europe/Warsaw')).toBe('December 1, 2026')
    expect(formatCertificateDate(LATE, 'pl', 'America/New_York')).toBe('30 listopada 2026')
  })

  it('falls back to UTC for an unknown zone', () => {
    expect(formatCertificateDate(LATE, 'pl', 'Mars/Olympus')).toBe('30 listopada 2026')
  })
})
