// The course builder's request side (issue 5 §2): zod schemas of the lecture and component forms,
// the lookups every builder route starts with (the course in THIS school first, then the user: an
// id of another school is 404 for everyone), and parsing of the "run time" input.
import { redirect } from '@remix-run/cloudflare'
import type { AppLoadContext } from '@remix-run/cloudflare'
import { z } from 'zod'
import { LECTURE_KINDS } from '#app/db/schema.server.ts'
import { getCourse, getLecture, getSection, type ComponentData, type LectureInput } from '#app/models/course-content.server.ts'
import { listVideos } from '#app/models/video.server.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { getT, notFound, requireSchool } from '#app/utils/request.server.ts'
import { msg, type FieldErrors, type FormValues } from '#app/utils/validation.ts'
import { TITLE_MAX } from '#app/domain/course-paths.ts'

const DESCRIPTION_MAX = 5000
const BODY_MAX = 100_000
/** Our choice: a lecture runs at most 24 hours. */
const RUN_TIME_MAX = 24 * 60 * 60
/** Our choice: a drip of at most ten years. */
export const DRIP_DAYS_MAX = 3650

/** 'YYYY-MM-DD' → ms at 00:00 UTC; null when it is not a real date between 2000 and 2200. */
export function parseIsoDate(value: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (!m) return null
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value || Number(m[1]) < 2000 || Number(m[1]) > 2200) return null
  return ms
}

type Params = Record<string, string | undefined>

/** Course of this school, else 404; then an owner or admin (students get 404 too). */
export async function requireCourse(request: Request, context: AppLoadContext, params: Params) {
  const tenant = requireSchool(context)
  const course = await getCourse(context.db, tenant.id, params.courseId ?? '')
  if (!course) notFound()
  const { user } = await requireStaff({ request, context })
  return { tenant, course, user }
}

export async function requireSection(request: Request, context: AppLoadContext, params: Params) {
  const tenant = requireSchool(context)
  const course = await getCourse(context.db, tenant.id, params.courseId ?? '')
  const section = course ? await getSection(context.db, tenant.id, course.id, params.sectionId ?? '') : undefined
  if (!course || !section) notFound()
  const { user } = await requireStaff({ request, context })
  return { tenant, course, section, user }
}

export async function requireLecture(request: Request, context: AppLoadContext, params: Params) {
  const tenant = requireSchool(context)
  const course = await getCourse(context.db, tenant.id, params.courseId ?? '')
  const section = course ? await getSection(context.db, tenant.id, course.id, params.sectionId ?? '') : undefined
  const lecture = course && section ? await getLecture(context.db, tenant.id, course.id, section.id, params.lectureId ?? '') : undefined
  if (!course || !section || !lecture) notFound()
  const { user } = await requireStaff({ request, context })
  return { tenant, course, section, lecture, user }
}

/** The videos a lecture can pick (the school's library), with their state. */
export async function videoChoices(context: AppLoadContext, tenantId: string) {
  const rows = await listVideos(context.db, tenantId)
  return rows.map((v) => ({ id: v.id, title: v.title, state: v.state, lengthSeconds: v.lengthSeconds }))
}

/** "90", "1:30" or "1:01:30" → seconds; null when unreadable. */
export function parseRunTime(input: string): number | null {
  const s = input.trim()
  if (s === '') return 0
  if (/^\d{1,6}$/.test(s)) return Number(s)
  const parts = /^(?:(\d{1,2}):)?(\d{1,4}):([0-5]\d)$/.exec(s)
  if (!parts) return null
  return Number(parts[1] ?? 0) * 3600 + Number(parts[2]) * 60 + Number(parts[3])
}

const multiline = (max: number) =>
  z
    .string()
    .optional()
    .transform((s) => (s ?? '').replace(/\r\n/g, '\n').trim())
    .pipe(z.string().max(max).refine((s) => !/[\u0000-\u0008\u000b-\u001f\u007f]/.test(s), { message: msg('validation.invalid') }))

/** A one-line title with the seed's own "empty" message. */
export const titleField = (emptyKey: string) =>
  z
    .string({ required_error: msg(emptyKey) })
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(1, { message: msg(emptyKey) })
        .max(TITLE_MAX)
        .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), { message: msg('validation.invalid') }),
    )

const checkbox = z
  .literal('on')
  .optional()
  .transform((v) => v === 'on')
const optionalId = z
  .string()
  .max(300)
  .optional()
  .transform((s) => s?.trim() || null)

export const SectionTitleSchema = z.object({ title: titleField('courses.section.title_required') })

export const LectureSchema = z
  .object({
    title: titleField('courses.lecture.title_required'),
    kind: z.enum(LECTURE_KINDS),
    description: multiline(DESCRIPTION_MAX),
    body: multiline(BODY_MAX),
    videoId: optionalId,
    sourceUrl: z
      .string()
      .max(2000)
      .optional()
      .transform((s) => s?.trim() || null)
      .refine((s) => s === null || (/^https:\/\/[^\s]+$/.test(s) && URL.canParse(s)), { message: msg('courses.lecture.source_https') }),
    pdfKey: optionalId,
    runTime: z
      .string()
      .optional()
      .transform((s, ctx) => {
        const seconds = parseRunTime(s ?? '')
        if (seconds === null || seconds > RUN_TIME_MAX) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, message: msg('courses.lecture.run_time_invalid') })
          return z.NEVER
        }
        return seconds
      }),
    freeToWatch: checkbox,
    published: checkbox,
    commentsEnabled: checkbox,
    /** Drip: opens N days after the student's enrolment ('' = at once) … */
    dripDays: z
      .string()
      .optional()
      .transform((s, ctx) => {
        const v = (s ?? '').trim()
        if (!v) return null
        if (!/^\d{1,4}$/.test(v) || Number(v) > DRIP_DAYS_MAX) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, message: msg('courses.lecture.drip_days_invalid', { max: DRIP_DAYS_MAX }) })
          return z.NEVER
        }
        return Number(v) === 0 ? null : Number(v)
      }),
    /** … and/or on a date (YYYY-MM-DD, 00:00 UTC). */
    dripAt: z
      .string()
      .optional()
      .transform((s, ctx) => {
        const v = (s ?? '').trim()
        if (!v) return null
        const ms = parseIsoDate(v)
        if (ms === null) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, message: msg('courses.lecture.drip_at_invalid') })
          return z.NEVER
        }
        return ms
      }),
    /** The lecture edit form may move it to another section of the course. */
    sectionId: optionalId,
  })
  .transform(
    (v): LectureInput & { sectionId: string | null } => ({
      title: v.title,
      kind: v.kind,
      description: v.description,
      body: v.body,
      videoId: v.videoId,
      sourceUrl: v.sourceUrl,
      pdfKey: v.pdfKey,
      runTimeSeconds: v.runTime,
      freeToWatch: v.freeToWatch,
      published: v.published,
      commentsEnabled: v.commentsEnabled,
      dripDays: v.dripDays,
      dripAt: v.dripAt,
      sectionId: v.sectionId,
    }),
  )

export const QUIZ_ANSWER_SLOTS = 4

/** Text (markdown), a file (an uploaded lecture file) or a quiz (2–4 answers, at least one correct). */
export const ComponentSchema = z
  .object({
    kind: z.enum(['text', 'file', 'quiz']),
    body: multiline(BODY_MAX),
    fileKey: optionalId,
    filename: z.string().max(255).optional(),
    question: multiline(5000),
    hint: multiline(5000),
    ...Object.fromEntries(Array.from({ length: QUIZ_ANSWER_SLOTS }, (_, i) => [`answer${i}`, multiline(1000)])),
    ...Object.fromEntries(Array.from({ length: QUIZ_ANSWER_SLOTS }, (_, i) => [`correct${i}`, checkbox])),
  })
  .transform((v, ctx): ComponentData => {
    const raw = v as unknown as Record<string, string | boolean | null | undefined>
    if (v.kind === 'text') {
      if (!v.body) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['body'], message: msg('courses.component.text_required') })
      return { kind: 'text', body: v.body }
    }
    if (v.kind === 'file') {
      if (!v.fileKey) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['fileKey'], message: msg('courses.component.file_required') })
      return { kind: 'file', key: v.fileKey ?? '', filename: (v.filename ?? '').trim().slice(0, 255) }
    }
    const answers = Array.from({ length: QUIZ_ANSWER_SLOTS }, (_, i) => ({ text: String(raw[`answer${i}`] ?? ''), correct: raw[`correct${i}`] === true })).filter((a) => a.text)
    if (!v.question) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['question'], message: msg('courses.component.question_required') })
    if (answers.length < 2) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['answer0'], message: msg('courses.component.answers_min') })
    else if (!answers.some((a) => a.correct)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['answer0'], message: msg('courses.component.correct_required') })
    return { kind: 'quiz', question: v.question, answers, hint: v.hint }
  })

/** A reorder post: the whole new order (drag and drop) or one step of one item (buttons). */
export const OrderSchema = z.union([
  z.object({ order: z.string().min(1).max(5000).transform((s) => s.split(',').map((id) => id.trim()).filter(Boolean)) }),
  z.object({ id: z.string().min(1).max(64), move: z.enum(['up', 'down']) }),
])


/** What the new-lecture form needs (the page at .../lectures/create, and .../lectures after an error). */
export async function newLectureData(request: Request, context: AppLoadContext, params: Params) {
  const { tenant, course, section } = await requireSection(request, context, params)
  const t = getT(request, context)
  return {
    title: `${t('courses.lecture.new')} · ${section.title} · ${course.title}`,
    course: { id: course.id, title: course.title, commentsEnabled: course.commentsEnabled },
    section: { id: section.id, title: section.title },
    videos: await videoChoices(context, tenant.id),
  }
}

/** A parsed lecture as form values, to fill the form again after a problem found in the model. */
export function echoLecture(input: LectureInput & { sectionId?: string | null }) {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(input)) {
    if (typeof v === 'string') out[k] = v
    else if (v === true) out[k] = 'on'
  }
  out.runTime = input.runTimeSeconds ? String(input.runTimeSeconds) : ''
  out.dripDays = input.dripDays ? String(input.dripDays) : ''
  out.dripAt = input.dripAt ? new Date(input.dripAt).toISOString().slice(0, 10) : ''
  return out
}

/**
 * formError for the POST-only (resource) routes. Fetcher forms (JavaScript) read a plain JSON
 * answer with the same shape as formError (`data()` keeps its status only in a route with a page).
 * A native form post (no JavaScript: the URL has no `.data` suffix) goes back to the page it came
 * from with the first message in `?problem=`, which that page shows: forms work before JS loads.
 */
export function resourceError(request: Request, back: string, errors: FieldErrors, values: FormValues = {}, status = 400) {
  if (!new URL(request.url).pathname.endsWith('.data')) {
    const first = Object.values(errors)[0]
    const [path, hash] = back.split('#')
    const url = `${path}${path.includes('?') ? '&' : '?'}problem=${encodeURIComponent(first?.key ?? 'validation.invalid')}${hash ? `#${hash}` : ''}`
    return redirect(url, { status: 303 })
  }
  return Response.json({ errors, values, sent: false }, { status, headers: { 'Cache-Control': 'no-store' } })
}
