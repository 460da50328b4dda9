import { describe, expect, it } from 'vitest'
import { CLEAR_PROMO_COOKIE, countdownParts, countdownStorageKey, pad2, resolveCountdownEnd } from './countdown.ts'

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0)

describe('countdownParts', () => {
  it('splits the time left into days, hours, minutes and seconds', () => {
    const end = NOW + ((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1000
    expect(countdownParts(end, NOW)).toEqual({ days: 2, hours: 3, minutes: 4, seconds: 5, done: false })
  })
  it('has no days under 24 hours and counts whole seconds down', () => {
    expect(countdownParts(NOW + 3_599_999, NOW)).toEqual({ days: 0, hours: 0, minutes: 59, seconds: 59, done: false })
    expect(countdownParts(NOW + 1000, NOW)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 1, done: false })
  })
  it('is zeros and done at and below zero', () => {
    const zeros = { days: 0, hours: 0, minutes: 0, seconds: 0, done: true }
    expect(countdownParts(NOW, NOW)).toEqual(zeros)
    expect(countdownParts(NOW + 999, NOW)).toEqual(zeros)
    expect(countdownParts(NOW - 60_000, NOW)).toEqual(zeros)
    expect(countdownParts(Number.NaN, NOW)).toEqual(zeros)
  })
})

describe('resolveCountdownEnd', () => {
  const seconds = { mode: 'seconds' as const, date: '', seconds: 90, testMode: false }
  it('fixed mode ends at the configured instant and never touches storage', () => {
    expect(resolveCountdownEnd({ ...seconds, mode: 'date', date: '2026-01-02T00:00:00Z' }, '123', NOW)).toEqual({ endAt: Date.UTC(2026, 0, 2), write: null, clear: false })
  })
  it('seconds mode starts a fresh end and stores it on the first visit', () => {
    expect(resolveCountdownEnd(seconds, null, NOW)).toEqual({ endAt: NOW + 90_000, write: String(NOW + 90_000), clear: false })
  })
  it('seconds mode reuses a stored end on later visits (also one already past)', () => {
    expect(resolveCountdownEnd(seconds, String(NOW + 5000), NOW + 1000)).toEqual({ endAt: NOW + 5000, write: null, clear: false })
    expect(resolveCountdownEnd(seconds, String(NOW - 5000), NOW)).toEqual({ endAt: NOW - 5000, write: null, clear: false })
  })
  it('ignores a tampered stored value', () => {
    expect(resolveCountdownEnd(seconds, 'soon', NOW).endAt).toBe(NOW + 90_000)
    expect(resolveCountdownEnd(seconds, '1e99', NOW).write).toBe(String(NOW + 90_000))
  })
  it('testMode clears the stored end and counts afresh', () => {
    expect(resolveCountdownEnd({ ...seconds, testMode: true }, String(NOW + 5000), NOW)).toEqual({ endAt: NOW + 90_000, write: null, clear: true })
  })
  it('without storage (editor preview) counts afresh and stores nothing', () => {
    expect(resolveCountdownEnd(seconds, String(NOW + 5000), NOW, { storage: false })).toEqual({ endAt: NOW + 90_000, write: null, clear: false })
  })
})

describe('helpers', () => {
  it('keys storage by page path and block id', () => {
    expect(countdownStorageKey('/p/offer', 'b1')).toBe('countdown:/p/offer:b1')
    expect(countdownStorageKey('/p/offer', 'b1')).not.toBe(countdownStorageKey('/p/other', 'b1'))
  })
  it('pads to two digits and clears the promo_code cookie at path /', () => {
    expect(pad2(7)).toBe('07')
    expect(pad2(42)).toBe('42')
    expect(CLEAR_PROMO_COOKIE).toMatch(/^promo_code=;.*expires=Thu, 01 Jan 1970.*path=\/$/)
  })
})
