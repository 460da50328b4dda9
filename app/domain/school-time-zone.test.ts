// The stats' calendar arithmetic (issue 24 item 3): local midnights across summer-time changes,
// offset pieces of a range, week and month starts, and the zone chosen by language.
import { describe, expect, it } from 'vitest'
import { dayName, dayNumber, isTimeZone, localDay, localMidnight, monthStart, nextMonthStart, offsetSegments, schoolTimeZone, weekStart, zoneOffset } from './school-time-zone.ts'
import { bucketOf, buckets, resolveRange } from '#app/stats/range.ts'

const day = (name: string) => dayNumber(name)!

describe('school time zone', () => {
  it('picks the stored zone, else Warsaw for Polish schools and UTC for English ones', () => {
    expect(schoolTimeZone({ timeZone: '', language: 'pl' })).toBe('Europe/Warsaw')
    expect(schoolTimeZone({ timeZone: null, language: 'en' })).toBe('UTC')
    expect(schoolTimeZone({ timeZone: 'America/New_York', language: 'pl' })).toBe('America/New_York')
    expect(schoolTimeZone({ timeZone: 'Nowhere/Land', language: 'pl' })).toBe('Europe/Warsaw')
    expect(isTimeZone('UTC')).toBe(true)
    expect(isTimeZone('europe/warsaw')).toBe(false)
  })

  it('names calendar days and refuses impossible dates', () => {
    expect(dayName(day('2026-10-25'))).toBe('2026-10-25')
    expect(dayNumber('2026-02-30')).toBeNull()
    expect(dayNumber('26-10-01')).toBeNull()
    // 2026-10-26 is a Monday; its week starts on it, the Sunday before belongs to the week before.
    expect(dayName(weekStart(day('2026-10-26')))).toBe('2026-10-26')
    expect(dayName(weekStart(day('2026-10-25')))).toBe('2026-10-19')
    expect(dayName(monthStart(day('2026-10-25')))).toBe('2026-10-01')
    expect(dayName(nextMonthStart(day('2026-12-31')))).toBe('2027-01-01')
  })

  it('finds local midnights and days in Warsaw on both sides of the summer-time change', () => {
    const zone = 'Europe/Warsaw'
    expect(localMidnight(day('2026-10-25'), zone)).toBe(Date.UTC(2026, 9, 24, 22))
    expect(localMidnight(day('2026-10-26'), zone)).toBe(Date.UTC(2026, 9, 25, 23))
    // Spring forward (29 March 2026, 02:00 → 03:00): midnight is still there.
    expect(localMidnight(day('2026-03-29'), zone)).toBe(Date.UTC(2026, 2, 28, 23))
    expect(localMidnight(day('2026-03-30'), zone)).toBe(Date.UTC(2026, 2, 29, 22))
    expect(dayName(localDay(Date.UTC(2026, 9, 1, 22, 30), zone))).toBe('2026-10-02')
    expect(dayName(localDay(Date.UTC(2026, 9, 1, 21, 59), zone))).toBe('2026-10-01')
    expect(zoneOffset(Date.UTC(2026, 6, 1), zone)).toBe(7_200_000)
    expect(zoneOffset(Date.UTC(2026, 0, 1), zone)).toBe(3_600_000)
    // Half-hour zones too.
    expect(localMidnight(day('2026-10-01'), 'Asia/Calcutta')).toBe(Date.UTC(2026, 8, 30, 18, 30))
  })

  it('splits a range into the pieces where the offset holds, to the minute', () => {
    const from = localMidnight(day('2026-10-01'), 'Europe/Warsaw')
    const to = localMidnight(day('2026-11-01'), 'Europe/Warsaw')
    expect(offsetSegments(from, to, 'Europe/Warsaw')).toEqual([
      { from, offset: 7_200_000 },
      { from: Date.UTC(2026, 9, 25, 1), offset: 3_600_000 },
    ])
    expect(offsetSegments(from, to, 'UTC')).toEqual([{ from, offset: 0 }])
  })

  it('resolves presets in the zone and groups days into clipped buckets', () => {
    const now = Date.UTC(2026, 10, 27, 23, 30) // 00:30 on 28 Nov in Warsaw
    const r = resolveRange(new URLSearchParams('range=7d'), 'Europe/Warsaw', now)
    expect(r.ok && [r.range.from, r.range.to]).toEqual(['2026-11-22', '2026-11-28'])
    const last = resolveRange(new URLSearchParams('range=last_month&group=week'), 'UTC', now)
    expect(last.ok && [last.range.from, last.range.to, last.range.buckets.length]).toEqual(['2026-10-01', '2026-10-31', 5])
    const bad = resolveRange(new URLSearchParams('range=custom&from=2026-10-31&to=2026-10-01'), 'UTC', now)
    expect(bad.ok).toBe(false)
    if (!bad.ok) expect(bad.errors.to).toEqual({ key: 'stats.error.order' })
    const b = buckets(day('2026-09-15'), day('2026-11-10'), 'month')
    expect(b.map((x) => [dayName(x.start), dayName(x.end - 1)])).toEqual([
      ['2026-09-15', '2026-09-30'],
      ['2026-10-01', '2026-10-31'],
      ['2026-11-01', '2026-11-10'],
    ])
    expect(bucketOf(b, day('2026-10-31'))).toBe(1)
    expect(bucketOf(b, day('2026-11-11'))).toBe(-1)
  })
})
