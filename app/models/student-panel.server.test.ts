import { describe, expect, it } from 'vitest'
import { translate } from '#app/i18n/i18n.ts'
import { assemblePanel, progressPercent, resolveCourseStanding, type CoursePath } from './student-panel.server.ts'

const NOW = Date.UTC(2026, 10, 22, 12)
const DAY = 86_400_000
const bundle = { id: 'b1', title: 'Starter bundle', kind: 'bundle' as const }
const membership = { id: 'm1', title: 'Club', kind: 'membership' as const }
const path = (over: Partial<CoursePath>): CoursePath => ({ via: null, status: 'active', startsAt: NOW - DAY, expiresAt: null, ...over })

describe('progressPercent', () => {
  it('is completed / published lectures, rounded down, 0 without lectures', () => {
    expect(progressPercent(0, 0)).toBe(0)
    expect(progressPercent(3, 0)).toBe(0)
    expect(progressPercent(1, 3)).toBe(33)
    expect(progressPercent(2, 3)).toBe(66)
    expect(progressPercent(199, 200)).toBe(99)
    expect(progressPercent(4, 4)).toBe(100)
    expect(progressPercent(5, 4)).toBe(100)
  })
})

describe('resolveCourseStanding', () => {
  it('is active while any path holds, ending at the latest end (null when one path has none)', () => {
    expect(resolveCourseStanding([path({ expiresAt: NOW + DAY }), path({ via: bundle, expiresAt: NOW + 5 * DAY })])).toEqual({ status: 'active', accessEndsAt: NOW + 5 * DAY, accessStartsAt: null, via: ['Starter bundle'] })
    expect(resolveCourseStanding([path({ expiresAt: NOW + DAY }), path({ via: membership })])).toMatchObject({ status: 'active', accessEndsAt: null, via: ['Club'] })
    // An ended direct row does not hide access that still holds through a membership.
    expect(resolveCourseStanding([path({ status: 'expired', expiresAt: NOW - DAY }), path({ via: membership, expiresAt: NOW + DAY })])).toMatchObject({ status: 'active', accessEndsAt: NOW + DAY })
  })

  it('is scheduled before access starts', () => {
    expect(resolveCourseStanding([path({ status: 'scheduled', startsAt: NOW + 3 * DAY }), path({ status: 'revoked' })])).toEqual({ status: 'scheduled', accessEndsAt: null, accessStartsAt: NOW + 3 * DAY, via: [] })
  })

  it('shows an ended or denied course reached directly or by a bundle, hides one only an ended membership opened', () => {
    expect(resolveCourseStanding([path({ status: 'expired', expiresAt: NOW - DAY })])).toEqual({ status: 'expired', accessEndsAt: NOW - DAY, accessStartsAt: null, via: [] })
    expect(resolveCourseStanding([path({ via: bundle, status: 'revoked' })])).toMatchObject({ status: 'revoked' })
    expect(resolveCourseStanding([path({ via: membership, status: 'expired', expiresAt: NOW - DAY })])).toBeNull()
    expect(resolveCourseStanding([])).toBeNull()
  })
})

describe('assemblePanel', () => {
  const row = (productId: string, kind: 'course' | 'bundle' | 'membership' | 'live_event' | 'file' | 'consultation' | 'physical', over: Record<string, unknown> = {}) => ({
    productId,
    startsAt: NOW - 10 * DAY,
    expiresAt: null,
    revokedAt: null,
    kind,
    title: productId.toUpperCase(),
    slug: productId,
    description: '',
    coverPath: null,
    published: true,
    membershipPeriod: null,
    membershipGrantsAll: false,
    eventStartsAt: null,
    eventTimezone: null,
    eventJoinUrl: null,
    consultationMinutes: null,
    ...over,
  })
  const link = (parentId: string, id: string, kind: 'course' | 'bundle' = 'course', published = true) => ({ parentId, id, kind, title: id.toUpperCase(), slug: id, coverPath: null, published })
  const empty = { rows: [], linkRows: [], allCourses: [], statRows: [], lastRows: [], fileRows: [] }

  it('reaches courses directly, through a bundle and through a bundle inside a membership; skips drafts', () => {
    const panel = assemblePanel(
      {
        ...empty,
        rows: [row('direct', 'course'), row('bundle', 'bundle'), row('club', 'membership', { expiresAt: NOW + 30 * DAY })],
        linkRows: [link('bundle', 'in-bundle'), link('bundle', 'draft', 'course', false), link('club', 'inner-bundle', 'bundle'), link('inner-bundle', 'deep')],
        statRows: [{ productId: 'direct', total: 4, done: 1, lastViewedAt: NOW - DAY }],
      },
      NOW,
    )
    expect(panel.courses.map((c) => c.slug)).toEqual(['direct', 'deep', 'in-bundle'])
    expect(panel.courses[0]).toMatchObject({ done: 1, total: 4, percent: 25, status: 'active', via: [] })
    expect(panel.courses[1]).toMatchObject({ via: ['CLUB'], accessEndsAt: NOW + 30 * DAY, total: 0, percent: 0 })
    expect(panel.memberships).toEqual([expect.objectContaining({ id: 'club', status: 'active', lifetime: false, includes: [{ id: 'inner-bundle', title: 'INNER-BUNDLE', slug: 'inner-bundle', kind: 'bundle' }] })])
  })

  it('opens every published course through an active all-products membership, none through an ended one', () => {
    const allCourses = [{ id: 'c1', title: 'A', slug: 'a', coverPath: null }]
    const active = assemblePanel({ ...empty, rows: [row('all', 'membership', { membershipGrantsAll: true })], allCourses }, NOW)
    expect(active.courses).toMatchObject([{ slug: 'a', status: 'active', via: ['ALL'] }])
    expect(active.memberships[0]).toMatchObject({ grantsAll: true, lifetime: true, includes: [] })
    const ended = assemblePanel({ ...empty, rows: [row('all', 'membership', { membershipGrantsAll: true, expiresAt: NOW - DAY })], allCourses }, NOW)
    expect(ended.courses).toEqual([])
    expect(ended.memberships[0]).toMatchObject({ status: 'expired', expiresAt: NOW - DAY })
  })

  it('sends an event join link only while access holds, lists files only of held file products', () => {
    const panel = assemblePanel(
      {
        ...empty,
        rows: [
          row('live', 'live_event', { eventStartsAt: NOW + DAY, eventJoinUrl: 'https://meet.example/1' }),
          row('gone', 'live_event', { eventStartsAt: NOW + 2 * DAY, eventJoinUrl: 'https://meet.example/2', revokedAt: NOW - DAY }),
          row('pack', 'file'),
          row('old-pack', 'file', { expiresAt: NOW - DAY }),
        ],
        fileRows: [{ id: 'f1', productId: 'pack', originalFilename: 'Guide.pdf', size: 10, kind: 'pdf' }],
      },
      NOW,
    )
    expect(panel.events.map((e) => [e.id, e.status, e.joinUrl])).toEqual([
      ['live', 'active', 'https://meet.example/1'],
      ['gone', 'revoked', null],
    ])
    expect(panel.fileProducts).toEqual([{ id: 'pack', title: 'PACK', description: '', files: [{ id: 'f1', filename: 'Guide.pdf', size: 10, kind: 'pdf' }] }])
  })
})

describe('panel messages', () => {
  it('count lectures and minutes with English and Polish plural forms', () => {
    expect(translate('en', 'student_panel.course.progress', { done: 1, count: 1 })).toBe('1 of 1 lecture')
    expect(translate('en', 'student_panel.course.progress', { done: 2, count: 4 })).toBe('2 of 4 lectures')
    expect(translate('pl', 'student_panel.course.progress', { done: 2, count: 5 })).toBe('2 z 5 lekcji')
    expect(translate('pl', 'student_panel.consultation.minutes', { count: 1 })).toBe('1 minuta')
    expect(translate('pl', 'student_panel.consultation.minutes', { count: 3 })).toBe('3 minuty')
    expect(translate('pl', 'student_panel.consultation.minutes', { count: 45 })).toBe('45 minut')
    expect(translate('en', 'student_panel.consultation.minutes', { count: 45 })).toBe('45 minutes')
  })
})
