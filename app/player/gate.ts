// Who may open which lecture (issue 7 item 2), as pure functions of rows already read: the player
// page, the lecture JSON, the video token and the PDF route all decide through `lectureGate`, so a
// lecture the page shows locked is also refused by every endpoint.

export const DAY_MS = 24 * 60 * 60 * 1000

export type GateCourse = { published: boolean; isFree: boolean; freeRequiresLogin: boolean }
export type GateLecture = { published: boolean; freeToWatch: boolean; dripDays: number | null; dripAt: number | null }
export type GateAccess = { allowed: boolean; staff: boolean; enrolledAt: number | null }

export type LectureGate =
  /** The viewer may see the content. `preview`: staff looking at a draft. */
  | { state: 'open'; preview: boolean }
  /** Drip: the lecture opens for this student at `opensAt` (ms). */
  | { state: 'locked'; opensAt: number }
  /** Free lecture or free course, but the course asks visitors to sign in first. */
  | { state: 'login' }
  /** No access: the no-access page (offer to buy). */
  | { state: 'no_access' }
  /** Unpublished lecture or course for a non-staff viewer: does not exist for them. */
  | { state: 'not_found' }

/**
 * When a dripped lecture opens for a student enrolled at `enrolledAt`: N days after enrolment
 * and/or on a date (both set: the later). null = no drip. Days need an enrolment to count from;
 * without one (a visitor on a free lecture) only the date applies.
 */
export function dripOpensAt(lecture: Pick<GateLecture, 'dripDays' | 'dripAt'>, enrolledAt: number | null): number | null {
  const times: number[] = []
  if (lecture.dripDays !== null && lecture.dripDays > 0 && enrolledAt !== null) times.push(enrolledAt + lecture.dripDays * DAY_MS)
  if (lecture.dripAt !== null && lecture.dripAt > 0) times.push(lecture.dripAt)
  return times.length ? Math.max(...times) : null
}

/** The one access decision for a lecture (seed 001 §6, issue 7 item 2). Staff see everything, drafts too, never dripped. */
export function lectureGate(course: GateCourse, lecture: GateLecture, access: GateAccess, signedIn: boolean, now: number): LectureGate {
  if (access.staff) return { state: 'open', preview: !course.published || !lecture.published }
  if (!course.published || !lecture.published) return { state: 'not_found' }
  const free = lecture.freeToWatch || course.isFree
  if (!access.allowed) {
    if (!free) return { state: 'no_access' }
    if (course.freeRequiresLogin && !signedIn) return { state: 'login' }
  }
  const opensAt = dripOpensAt(lecture, access.allowed ? access.enrolledAt : null)
  if (opensAt !== null && opensAt > now) return { state: 'locked', opensAt }
  return { state: 'open', preview: false }
}

/** Completed published lectures over published lectures, in whole percent (0 for an empty course). */
export function courseProgress(publishedLectureIds: string[], completedIds: Iterable<string>) {
  const completed = new Set(completedIds)
  const done = publishedLectureIds.filter((id) => completed.has(id)).length
  const total = publishedLectureIds.length
  return { done, total, percent: total === 0 ? 0 : Math.floor((done * 100) / total) }
}
