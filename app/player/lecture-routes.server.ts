// The lecture calls (issue 7; seed 000 §7 "Lecture family"): GET /lecture/{id} (JSON),
// /lecture/{id}/video (a fresh signed embed URL), /lecture/{id}/pdf (redirect to a short-lived
// signed URL), POST /lecture/{id}/watch|notes|star|complete. Another school's or an unknown id:
// 404; this school's lecture without access (or locked by drip): 403; nothing is written then.
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { z } from 'zod'
import { getLectureProgress, NOTE_MAX, saveNote, saveWatch, setComplete, setStar, type LectureRef } from '#app/models/lecture-progress.server.ts'
import { getCurrentUserOrVerify } from '#app/auth/auth.server.ts'
import { renderMarkdown } from '#app/utils/markdown.ts'
import { getT, requireSchool } from '#app/utils/request.server.ts'
import { noStoreJson as json } from '#app/utils/responses.server.ts'
import type { LectureGate } from './gate.ts'
import { lectureComponentsOf, lectureHasFile, lectureVideo, loadLectureForViewer, signLectureFile, type LectureForViewer } from './player.server.ts'

const ID = /^[A-Za-z0-9_-]{1,64}$/

function refusal(gate: LectureGate, t: (key: string, values?: Record<string, string | number>) => string) {
  if (gate.state === 'locked') return json({ error: 'player.error.locked', message: t('player.error.locked'), opensAt: gate.opensAt }, 403)
  if (gate.state === 'login') return json({ error: 'player.error.login_required', message: t('player.error.login_required') }, 403)
  return json({ error: 'player.error.no_access', message: t('player.error.no_access') }, 403)
}

const notFoundJson = () => json({ error: 'error.not_found.title' }, 404)

/** The lecture for this request's viewer, or the refusal to send. */
async function openLecture({ request, context, params }: LoaderFunctionArgs | ActionFunctionArgs): Promise<{ ok: true; found: LectureForViewer; user: Awaited<ReturnType<typeof getCurrentUserOrVerify>> } | { ok: false; response: Response }> {
  const tenant = requireSchool(context)
  const id = params.id ?? ''
  if (!ID.test(id)) return { ok: false, response: notFoundJson() }
  const user = await getCurrentUserOrVerify(request, context)
  const found = await loadLectureForViewer(context.db, tenant.id, id, user ? { id: user.id, role: user.role } : null)
  if (!found) return { ok: false, response: notFoundJson() }
  if (found.gate.state !== 'open') return { ok: false, response: refusal(found.gate, getT(request, context)) }
  return { ok: true, found, user }
}

/** Quiz answers carry their correct flags: the check runs in the browser (seed 000 widget 11). */
export async function lectureJson(args: LoaderFunctionArgs) {
  const opened = await openLecture(args)
  if (!opened.ok) return opened.response
  const { found, user } = opened
  const { lecture } = found
  const tenant = requireSchool(args.context)
  const components = await lectureComponentsOf(args.context.db, tenant.id, lecture)
  const progress = user ? await getLectureProgress(args.context.db, tenant.id, { userId: user.id, productId: lecture.productId, lectureId: lecture.id }) : null
  return json({
    id: lecture.id,
    title: lecture.title,
    kind: lecture.kind,
    description: lecture.description,
    html: lecture.kind === 'text' ? renderMarkdown(lecture.body) : '',
    pdf: lecture.kind === 'pdf' && lecture.pdfKey ? `/lecture/${lecture.id}/pdf` : null,
    video: lecture.kind === 'video' ? `/lecture/${lecture.id}/video` : null,
    components: components.map(publicComponent(lecture.id)),
    progress: progress
      ? { positionSeconds: progress.positionSeconds, watchedSeconds: progress.watchedSeconds, note: progress.note, starred: progress.starred, completed: progress.completedAt !== null }
      : null,
  })
}

export type PlayerComponent =
  | { id: string; kind: 'text'; html: string }
  | { id: string; kind: 'file'; filename: string; href: string }
  | { id: string; kind: 'quiz'; questionHtml: string; answers: Array<{ text: string; correct: boolean }>; hintHtml: string }

export const publicComponent =
  (lectureId: string) =>
  (c: Awaited<ReturnType<typeof lectureComponentsOf>>[number]): PlayerComponent => {
    if (c.data.kind === 'text') return { id: c.id, kind: 'text', html: renderMarkdown(c.data.body) }
    if (c.data.kind === 'file') return { id: c.id, kind: 'file', filename: c.data.filename, href: `/lecture/${lectureId}/pdf?component=${encodeURIComponent(c.id)}` }
    return { id: c.id, kind: 'quiz', questionHtml: renderMarkdown(c.data.question), answers: c.data.answers, hintHtml: renderMarkdown(c.data.hint) }
  }

/** GET /lecture/{id}/video: a freshly signed Bunny embed URL (autoplay and preload off). */
export async function lectureVideoJson(args: LoaderFunctionArgs) {
  const opened = await openLecture(args)
  if (!opened.ok) return opened.response
  const tenant = requireSchool(args.context)
  const video = await lectureVideo(args.context, tenant.id, opened.found.lecture)
  if (video.kind === 'none') return notFoundJson()
  if (video.kind === 'external') return json({ url: video.url, expiresAt: null })
  if (!video.url) return json({ error: 'player.video.processing', processing: video.processing }, video.processing ? 409 : 502)
  return json({ url: video.url, expiresAt: video.expiresAt })
}

const PdfQuery = z.object({ component: z.string().regex(ID).optional(), mode: z.enum(['open', 'download']).optional() })

/** GET /lecture/{id}/pdf[?component=…]: 302 to a short-lived signed URL, never cached. */
export async function lecturePdf(args: LoaderFunctionArgs) {
  const opened = await openLecture(args)
  if (!opened.ok) return opened.response
  const tenant = requireSchool(args.context)
  const query = PdfQuery.safeParse(Object.fromEntries(new URL(args.request.url).searchParams))
  if (!query.success) return json({ error: 'error.not_found.title' }, 400)
  const { lecture } = opened.found
  const key = query.data.component ? await lectureHasFile(args.context.db, tenant.id, lecture.id, query.data.component) : lecture.kind === 'pdf' ? lecture.pdfKey : null
  if (!key) return notFoundJson()
  const signed = await signLectureFile(args.context, args.request, tenant.id, key, query.data.mode === 'download' ? 'attachment' : 'inline')
  if (!signed.ok) return json({ error: 'player.error.file' }, signed.status === 404 ? 404 : 502)
  return redirect(signed.body.url, { headers: { 'Cache-Control': 'private, no-store' } })
}

/** Script calls ask for JSON; a plain form (no JavaScript) goes back to the lecture page. */
const wantsJson = (request: Request) => (request.headers.get('Accept') ?? '').includes('application/json')

const WatchSchema = z.object({ position: z.coerce.number().finite().min(0).max(1e7), watched: z.coerce.number().finite().min(0).max(1e7) })
const NoteSchema = z.object({ note: z.string().max(NOTE_MAX, 'player.notes.too_long') })
const FlagSchema = z.object({ value: z.enum(['1', '0', 'true', 'false']).optional() })

async function readBody(request: Request): Promise<Record<string, unknown>> {
  const type = request.headers.get('Content-Type') ?? ''
  try {
    if (type.includes('application/json')) {
      const body = (await request.json()) as unknown
      return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {}
    }
    return Object.fromEntries(await request.formData())
  } catch {
    return {}
  }
}

const flag = (v: string | undefined) => (v === undefined ? undefined : v === '1' || v === 'true')

export type ProgressCall = 'watch' | 'notes' | 'star' | 'complete'

/** POST /lecture/{id}/{watch,notes,star,complete}: the signed-in viewer's progress in an open lecture. */
export async function progressAction(call: ProgressCall, args: ActionFunctionArgs) {
  if (args.request.method !== 'POST') return json({ error: 'error.not_found.title' }, 405)
  const opened = await openLecture(args)
  if (!opened.ok) return opened.response
  const { found, user } = opened
  const t = getT(args.request, args.context)
  const back = `/${found.course.slug}/watch/${found.lecture.id}`
  if (!user) {
    if (!wantsJson(args.request)) return redirect(`/login?redirectTo=${encodeURIComponent(back)}`)
    return json({ message: t('error.session_expired'), redirectTo: '/login' }, 401)
  }
  // An exam lecture is completed by passing the exam (issue 24 item 1), never by this call.
  if (call === 'complete' && found.lecture.kind === 'exam') {
    // The button is not shown for exams, so any caller gets the JSON refusal.
    return json({ error: 'exams.player.error.complete_by_passing', message: t('exams.player.error.complete_by_passing') }, 409)
  }
  const tenant = requireSchool(args.context)
  const db = args.context.db
  const ref: LectureRef = { userId: user.id, productId: found.lecture.productId, lectureId: found.lecture.id }
  const body = await readBody(args.request)
  let row
  if (call === 'watch') {
    const parsed = WatchSchema.safeParse(body)
    if (!parsed.success) return json({ error: 'player.error.bad_request', message: t('player.error.bad_request') }, 422)
    row = await saveWatch(db, tenant.id, ref, { ...parsed.data, runTimeSeconds: found.lecture.runTimeSeconds })
  } else if (call === 'notes') {
    const parsed = NoteSchema.safeParse({ note: typeof body.note === 'string' ? body.note : '' })
    if (!parsed.success) {
      if (!wantsJson(args.request)) return redirect(`${back}?notes=too_long`)
      return json({ error: 'player.notes.too_long', message: t('player.notes.too_long', { max: NOTE_MAX }) }, 422)
    }
    row = await saveNote(db, tenant.id, ref, parsed.data.note.replace(/\r\n/g, '\n'))
  } else {
    const parsed = FlagSchema.safeParse({ value: typeof body.value === 'string' ? body.value : typeof body.value === 'boolean' ? String(body.value) : undefined })
    if (!parsed.success) return json({ error: 'player.error.bad_request', message: t('player.error.bad_request') }, 422)
    row = call === 'star' ? await setStar(db, tenant.id, ref, flag(parsed.data.value)) : await setComplete(db, tenant.id, ref, flag(parsed.data.value))
  }
  if (!wantsJson(args.request)) return redirect(call === 'notes' ? `${back}?notes=saved` : back)
  return json({ positionSeconds: row.positionSeconds, watchedSeconds: row.watchedSeconds, note: row.note, starred: row.starred, completed: row.completedAt !== null })
}
