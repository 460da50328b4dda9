import { describe, expect, it } from 'vitest'
import { courseProgress, DAY_MS, dripOpensAt, lectureGate } from './gate.ts'

const course = { published: true, isFree: false, freeRequiresLogin: false }
const lecture = { published: true, freeToWatch: false, dripDays: null, dripAt: null }
const student = { allowed: true, staff: false, enrolledAt: 1_000_000 }
const none = { allowed: false, staff: false, enrolledAt: null }
const staff = { allowed: true, staff: true, enrolledAt: null }
const NOW = 50 * DAY_MS

describe('dripOpensAt', () => {
  it('counts days from enrolment, takes a date, and the later of both', () => {
    expect(dripOpensAt({ dripDays: 3, dripAt: null }, 1000)).toBe(1000 + 3 * DAY_MS)
    expect(dripOpensAt({ dripDays: null, dripAt: 5000 }, 1000)).toBe(5000)
    expect(dripOpensAt({ dripDays: 1, dripAt: 5000 }, 1000)).toBe(1000 + DAY_MS)
    expect(dripOpensAt({ dripDays: 1, dripAt: 10 * DAY_MS }, 1000)).toBe(10 * DAY_MS)
  })
  it('has no drip without settings, and days need an enrolment', () => {
    expect(dripOpensAt({ dripDays: null, dripAt: null }, 1000)).toBeNull()
    expect(dripOpensAt({ dripDays: 0, dripAt: null }, 1000)).toBeNull()
    expect(dripOpensAt({ dripDays: 4, dripAt: null }, null)).toBeNull()
  })
})

describe('lectureGate', () => {
  it('opens for a student with access and refuses one without', () => {
    expect(lectureGate(course, lecture, student, true, NOW)).toEqual({ state: 'open', preview: false })
    expect(lectureGate(course, lecture, none, true, NOW)).toEqual({ state: 'no_access' })
    expect(lectureGate(course, lecture, none, false, NOW)).toEqual({ state: 'no_access' })
  })
  it('hides drafts from everyone but staff, who see them as a preview', () => {
    expect(lectureGate(course, { ...lecture, published: false }, student, true, NOW)).toEqual({ state: 'not_found' })
    expect(lectureGate({ ...course, published: false }, lecture, student, true, NOW)).toEqual({ state: 'not_found' })
    expect(lectureGate(course, { ...lecture, published: false }, staff, true, NOW)).toEqual({ state: 'open', preview: true })
  })
  it('locks a dripped lecture until it opens, never for staff', () => {
    const dripped = { ...lecture, dripDays: 60 }
    expect(lectureGate(course, dripped, student, true, NOW)).toEqual({ state: 'locked', opensAt: 1_000_000 + 60 * DAY_MS })
    expect(lectureGate(course, dripped, student, true, 1_000_000 + 60 * DAY_MS)).toEqual({ state: 'open', preview: false })
    expect(lectureGate(course, { ...lecture, dripAt: NOW + 1 }, student, true, NOW)).toEqual({ state: 'locked', opensAt: NOW + 1 })
    expect(lectureGate(course, dripped, staff, true, NOW).state).toBe('open')
  })
  it('opens free lectures and free courses to visitors unless the course requires login', () => {
    const free = { ...lecture, freeToWatch: true }
    expect(lectureGate(course, free, none, false, NOW).state).toBe('open')
    expect(lectureGate({ ...course, isFree: true }, lecture, none, false, NOW).state).toBe('open')
    expect(lectureGate({ ...course, freeRequiresLogin: true }, free, none, false, NOW)).toEqual({ state: 'login' })
    expect(lectureGate({ ...course, freeRequiresLogin: true }, free, none, true, NOW).state).toBe('open')
    expect(lectureGate({ ...course, freeRequiresLogin: true }, { ...free, published: false }, none, false, NOW)).toEqual({ state: 'not_found' })
  })
})

describe('courseProgress', () => {
  it('counts completed published lectures only, in whole percent', () => {
    expect(courseProgress(['a', 'b', 'c'], ['a', 'x'])).toEqual({ done: 1, total: 3, percent: 33 })
    expect(courseProgress(['a', 'b'], ['a', 'b'])).toEqual({ done: 2, total: 2, percent: 100 })
    expect(courseProgress([], ['a'])).toEqual({ done: 0, total: 0, percent: 0 })
  })
})
