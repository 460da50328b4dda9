// Server side of the lecture player (issue 7 item 2): read a course for the watch pages, and the
// access decision for one lecture by id (JSON, video token, PDF, progress calls). Every decision
// goes through getCourseAccess + lectureGate; ids of another school are simply not found.
import type { AppLoadContext } from '@remix-run/cloudflare'
import type { ShardDb } from '#app/db/client.server.ts'
import type { Lecture } from '#app/db/schema.server.ts'
import { filesService } from '#app/media/files-service.server.ts'
import { mediaOrigins } from '#app/media/origins.server.ts'
import { videosService } from '#app/media/videos-service.server.ts'
import { getCourseAccess, type CourseAccess, type CourseViewer } from '#app/models/course-access.server.ts'
import { listComponents, type ComponentView } from '#app/models/course-content.server.ts'
import { getLectureFileComponentData, getLectureWithCourse, listCurriculumRows, type PlayerCourse } from '#app/models/course-view.server.ts'
import { getVideo } from '#app/models/video.server.ts'
import { videoEmbedUrl } from '#app/domain/video-embed.ts'
import { courseProgress, lectureGate, type LectureGate } from './gate.ts'

export type { PlayerCourse }
// The watch pages read the course by slug through the player.
export { getCourseBySlug } from '#app/models/course-view.server.ts'

export type NavLecture = {
  id: string
  title: string
  kind: Lecture['kind']
  runTimeSeconds: number
  freeToWatch: boolean
  published: boolean
  gate: LectureGate
  completed: boolean
  starred: boolean
}
export type NavSection = { id: string; title: string; lectures: NavLecture[] }

/** The course's curriculum as this viewer sees it (drafts only for staff), each lecture with its gate. */
export async function loadCurriculum(db: ShardDb, tenantId: string, course: PlayerCourse, access: CourseAccess, signedIn: boolean, progress: Map<string, { completedAt: number | null; starred: boolean }>, now: number) {
  return curriculumFor(await listCurriculumRows(db, tenantId, course.id), course, access, signedIn, progress, now)
}

/** loadCurriculum on rows already read (curriculumQueries in the page's batch). */
export function curriculumFor(
  { sectionRows, lectureRows }: { sectionRows: Array<{ id: string; title: string }>; lectureRows: Lecture[] },
  course: PlayerCourse,
  access: CourseAccess,
  signedIn: boolean,
  progress: Map<string, { completedAt: number | null; starred: boolean }>,
  now: number,
) {
  const nav: NavSection[] = sectionRows.map((s) => ({
    ...s,
    lectures: lectureRows
      .filter((l) => l.sectionId === s.id)
      .map((l) => ({
        id: l.id,
        title: l.title,
        kind: l.kind,
        runTimeSeconds: l.runTimeSeconds,
        freeToWatch: l.freeToWatch,
        published: l.published,
        gate: lectureGate(course, l, access, signedIn, now),
        completed: progress.get(l.id)?.completedAt != null,
        starred: progress.get(l.id)?.starred ?? false,
      }))
      .filter((l) => l.gate.state !== 'not_found'),
  }))
  const visible = nav.filter((s) => s.lectures.length > 0)
  const ordered = visible.flatMap((s) => s.lectures)
  const published = ordered.filter((l) => l.published).map((l) => l.id)
  const done = [...progress.entries()].filter(([, p]) => p.completedAt != null).map(([id]) => id)
  return { sections: visible, ordered, lectureRows, progress: courseProgress(published, done) }
}

export type LectureForViewer = { lecture: Lecture; course: PlayerCourse; access: CourseAccess; gate: LectureGate }

/** A lecture of this school by id with its course, the viewer's access and the gate; undefined: not this school's (or a draft for a non-staff viewer). */
export async function loadLectureForViewer(db: ShardDb, tenantId: string, lectureId: string, viewer: CourseViewer, now = Date.now()): Promise<LectureForViewer | undefined> {
  const row = await getLectureWithCourse(db, tenantId, lectureId)
  if (!row) return undefined
  const access = await getCourseAccess(db, tenantId, row.course.id, viewer, now)
  const gate = lectureGate(row.course, row.lecture, access, viewer !== null, now)
  if (gate.state === 'not_found') return undefined
  return { ...row, access, gate }
}

/** The lecture's components (text, file, quiz), in order. */
export async function lectureComponentsOf(db: ShardDb, tenantId: string, lecture: Lecture): Promise<ComponentView[]> {
  return listComponents(db, tenantId, lecture.productId, lecture.sectionId, lecture.id)
}

/** Whether a file component with this key belongs to the lecture (the PDF route serves only those). */
export async function lectureHasFile(db: ShardDb, tenantId: string, lectureId: string, componentId: string) {
  const data = await getLectureFileComponentData(db, tenantId, lectureId, componentId)
  if (data === undefined) return null
  try {
    const parsed = JSON.parse(data) as { key?: unknown }
    return typeof parsed.key === 'string' && parsed.key ? parsed.key : null
  } catch {
    return null
  }
}

export type LectureVideo = { kind: 'bunny'; url: string | null; expiresAt: number | null; processing: boolean } | { kind: 'external'; url: string } | { kind: 'none' }

/** What plays a video lecture: a freshly signed Bunny embed (autoplay and preload off) or a YouTube/Vimeo player. Call only for an open lecture. */
export async function lectureVideo(context: AppLoadContext, tenantId: string, lecture: Lecture): Promise<LectureVideo> {
  if (lecture.kind !== 'video') return { kind: 'none' }
  if (lecture.videoId) {
    const video = await getVideo(context.db, tenantId, lecture.videoId)
    if (!video) return { kind: 'none' }
    if (video.state !== 'ready' && video.state !== 'playable') return { kind: 'bunny', url: null, expiresAt: null, processing: true }
    const embed = await videosService(context.cloudflare.env, tenantId).embed(video.id, { autoplay: false, preload: false })
    return embed.ok ? { kind: 'bunny', url: embed.body.url, expiresAt: embed.body.expiresAt, processing: false } : { kind: 'bunny', url: null, expiresAt: null, processing: false }
  }
  if (lecture.sourceUrl) {
    const url = videoEmbedUrl('youtube', lecture.sourceUrl) ?? videoEmbedUrl('vimeo', lecture.sourceUrl)
    if (url) return { kind: 'external', url }
  }
  return { kind: 'none' }
}

/** A short-lived signed URL of a lecture PDF or file component (inline for viewing). Call only for an open lecture. */
export async function signLectureFile(context: AppLoadContext, request: Request, tenantId: string, key: string, disposition: 'inline' | 'attachment') {
  const env = context.cloudflare.env
  return filesService(env, tenantId, mediaOrigins(env, request)).sign(key, disposition)
}
