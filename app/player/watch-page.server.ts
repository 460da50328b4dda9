// The watch pages (issue 7 item 2): /{slug}/watch picks the lecture to continue, and
// /{slug}/watch/{lectureId} reads everything the player shows for this viewer. Private: never
// cached at the edge (no s-maxage).
import { courseCertificateOffer } from '#app/certificates/certificates.server.ts'
import { readableTopic, topicOfCourse } from '#app/models/community.server.ts'
import { data, redirect, type AppLoadContext } from '@remix-run/cloudflare'
import { loadCommentsBox } from '#app/comments/comments-box.server.ts'
import type { PlayerNavSection } from '#app/player/components/player-nav.tsx'
import { mediaOrigins } from '#app/media/origins.server.ts'
import type { SQL } from 'drizzle-orm'
import { courseAccessQuery, toCourseAccess } from '#app/models/course-access.server.ts'
import { courseBySlugQuery, courseIdBySlug, curriculumQueries } from '#app/models/course-view.server.ts'
import { listCourseProgress, NOTE_MAX, touchLecture } from '#app/models/lecture-progress.server.ts'
import { getMyReview } from '#app/models/review.server.ts'
import { loadProductOffers } from '#app/storefront/product-offer.server.ts'
import { getCurrentUserOrVerify, joinSessionBatch } from '#app/auth/auth.server.ts'
import { formatDate } from '#app/utils/dates.ts'
import { renderMarkdown } from '#app/utils/markdown.ts'
import { getT, notFound, requireSchool } from '#app/utils/request.server.ts'
import { publicComponent } from './lecture-routes.server.ts'
import { curriculumFor, lectureComponentsOf, lectureVideo } from './player.server.ts'
import { loadExamPanel } from '#app/exams/player.server.ts'

export const PRIVATE_HEADERS = { 'Cache-Control': 'private, no-store' }

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
const ID = /^[A-Za-z0-9_-]{1,64}$/

/**
 * The course, the viewer's access and progress, and the curriculum: one db.batch, the session
 * lookup's when there is a session (issue 21 item 4), read by slug and by the session's user.
 */
async function readCourse(request: Request, context: AppLoadContext, slug: string) {
  const tenant = requireSchool(context)
  if (!SLUG.test(slug) || slug.length > 60) notFound()
  const now = Date.now()
  const db = context.db
  const courseId = courseIdBySlug(tenant.id, slug)
  const reads = (userId: SQL | string) => [courseBySlugQuery(db, tenant.id, slug), courseAccessQuery(db, tenant.id, courseId, userId, now), listCourseProgress(db, tenant.id, userId, courseId), ...curriculumQueries(db, tenant.id, courseId)] as const
  type Rows = { readonly [K in keyof ReturnType<typeof reads>]: Awaited<ReturnType<typeof reads>[K]> }
  const joined = joinSessionBatch(request, context, (userId) => [...reads(userId)])
  const user = await getCurrentUserOrVerify(request, context)
  // No session batch: a visitor's reads (no user matches ''), or the user's own when the lookup ran
  // before this loader (after the page's action, issue 24), still one round trip.
  const [courseRows, accessRows, progressRows, sectionRows, lectureRows] = (joined ? await joined : await db.batch(reads(user?.id ?? ''))) as unknown as Rows
  const viewer = user ? { id: user.id, role: user.role } : null
  const course = courseRows[0]
  if (!course) notFound()
  const access = toCourseAccess(viewer, accessRows)
  if (!course.published && !access.staff) notFound()
  // Rows of the session's user count only when the session holds (getCurrentUserOrVerify said so).
  const rows = user ? progressRows : []
  const progress = new Map(rows.map((r) => [r.lectureId, r]))
  const curriculum = curriculumFor({ sectionRows, lectureRows }, course, access, user !== null, progress, now)
  return { tenant, user, course, access, now, rows, progress, curriculum }
}

/** GET /{slug}/watch → the lecture last opened (if still open), else the first open one, else the first. */
export async function continueWatching(request: Request, context: AppLoadContext, slug: string) {
  const { course, access, rows, curriculum } = await readCourse(request, context, slug)
  const open = curriculum.ordered.filter((l) => l.gate.state === 'open')
  const openIds = new Set(open.map((l) => l.id))
  const last = rows.find((r) => openIds.has(r.lectureId))
  const target = last?.lectureId ?? open[0]?.id ?? curriculum.ordered[0]?.id
  if (target) throw redirect(`/${course.slug}/watch/${target}`, { headers: PRIVATE_HEADERS })
  // Nothing published yet (issue 23 item 3): a viewer with access gets a page saying so — the
  // course page would send them straight back here ("Watch"), a loop. Others see the offer there.
  if (!access.allowed) throw redirect(`/${course.slug}`, { headers: PRIVATE_HEADERS })
  const t = getT(request, context)
  return data(
    {
      mode: 'coming_soon' as const,
      title: t('publishing.soon.title', { course: course.title }),
      course: { title: course.title, slug: course.slug },
      // The course page answers only once the course is published (staff may preview a draft here).
      productHref: course.published ? `/${course.slug}` : null,
      builderHref: access.staff ? `/home/courses/${course.id}/sections` : null,
    },
    { headers: PRIVATE_HEADERS },
  )
}

export async function loadWatchPage(request: Request, context: AppLoadContext, slug: string, lectureId: string) {
  if (!ID.test(lectureId)) notFound()
  const { tenant, user, course, access, now, progress, curriculum } = await readCourse(request, context, slug)
  const index = curriculum.ordered.findIndex((l) => l.id === lectureId)
  const navLecture = curriculum.ordered[index]
  const lecture = curriculum.lectureRows.find((l) => l.id === lectureId)
  if (!navLecture || !lecture) notFound()
  const locale = tenant.language
  const back = `/${course.slug}/watch/${lecture.id}`
  const gate = navLecture.gate
  if (gate.state === 'login') throw redirect(`/login?redirectTo=${encodeURIComponent(back)}`, { headers: PRIVATE_HEADERS })

  const sections: PlayerNavSection[] = curriculum.sections.map((s) => ({
    id: s.id,
    title: s.title,
    lectures: s.lectures.map((l) => ({
      id: l.id,
      title: l.title,
      kind: l.kind,
      freeToWatch: l.freeToWatch,
      published: l.published,
      state: l.gate.state === 'not_found' ? 'no_access' : l.gate.state,
      availableOn: l.gate.state === 'locked' ? formatDate(l.gate.opensAt, locale) : null,
      completed: l.completed,
      starred: l.starred,
    })),
  }))
  const t = getT(request, context)
  const base = { course: { title: course.title, slug: course.slug }, lecture: { id: lecture.id, title: lecture.title, kind: lecture.kind }, title: t('player.title', { lecture: lecture.title, course: course.title }) }

  if (gate.state === 'no_access') {
    const env = context.cloudflare.env
    const offers = await loadProductOffers(context.db, tenant.id, [course.id], { viewerId: null, mediaOrigin: mediaOrigins(env, request).mediaOrigin, currency: tenant.currency, now })
    return data(
      { ...base, mode: 'no_access' as const, offer: offers[course.id] ?? null, loginHref: user ? null : `/login?redirectTo=${encodeURIComponent(back)}`, sections },
      { status: 403, headers: PRIVATE_HEADERS },
    )
  }

  const neighbour = (i: number) => {
    const l = curriculum.ordered[i]
    return l ? { id: l.id, title: l.title } : null
  }
  const shared = {
    ...base,
    sections,
    completedIds: curriculum.ordered.filter((l) => l.completed).map((l) => l.id),
    publishedIds: curriculum.ordered.filter((l) => l.published).map((l) => l.id),
    previous: neighbour(index - 1),
    next: neighbour(index + 1),
  }
  if (gate.state === 'locked') {
    return data({ ...shared, mode: 'locked' as const, availableOn: formatDate(gate.opensAt, locale) }, { headers: PRIVATE_HEADERS })
  }

  const ref = user ? { userId: user.id, productId: course.id, lectureId: lecture.id } : null
  const isExam = lecture.kind === 'exam'
  // An exam lecture shows its exam instead of components (a quiz component would carry its key).
  const [components, video, topic, exam, certificate] = await Promise.all([
    isExam ? [] : lectureComponentsOf(context.db, tenant.id, lecture),
    lectureVideo(context, tenant.id, lecture),
    user ? topicOfCourse(context.db, tenant.id, course.id) : null,
    isExam ? loadExamPanel(context, tenant.id, lecture, user?.id ?? null, locale, now) : undefined,
    // Issue 24: the course's certificate for a student with access (issued here once eligible).
    user && access.allowed && !access.staff ? courseCertificateOffer(context.db, context.cloudflare.env, tenant.id, user.id, course.id) : null,
  ])
  // The course's community topic (issue 22 item 8), linked only for viewers who may read it.
  const communityTopic = topic && user && (await readableTopic(context.db, tenant.id, topic.id, { id: user.id, role: user.role }, now)) ? topic : null
  if (ref) await touchLecture(context.db, tenant.id, ref, now)
  const own = progress.get(lecture.id)
  const commentsOn = course.commentsEnabled && lecture.commentsEnabled
  const comments = commentsOn
    ? await loadCommentsBox(context, tenant.id, { type: 'lecture', id: lecture.id }, user ? { id: user.id, name: user.name, role: user.role } : null, { loginPath: `/${course.slug}/watch/login` })
    : null
  const review = user && access.allowed && !access.staff ? { review: await getMyReview(context.db, tenant.id, course.id, user.id) } : null
  return data(
    {
      ...shared,
      mode: 'open' as const,
      preview: gate.state === 'open' && gate.preview,
      description: lecture.description,
      html: lecture.kind === 'text' ? renderMarkdown(lecture.body) : '',
      pdfHref: lecture.kind === 'pdf' && lecture.pdfKey ? `/lecture/${lecture.id}/pdf` : null,
      video,
      components: components.map(publicComponent(lecture.id)),
      exam: exam ?? null,
      loginHref: `/login?redirectTo=${encodeURIComponent(back)}`,
      canSave: user !== null,
      noteMax: NOTE_MAX,
      progress: { note: own?.note ?? '', starred: own?.starred ?? false, completed: own?.completedAt != null, watchedSeconds: own?.watchedSeconds ?? 0 },
      comments,
      review,
      communityTopic,
      certificate,
    },
    { headers: PRIVATE_HEADERS },
  )
}
