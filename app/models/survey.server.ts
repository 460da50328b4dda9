// Site survey (seed 000 §3 "Survey" and "Form question", §4 "Site survey", §7 POST /survey/{id}
// and /survey/submit). One survey of a school is active at a time; the /panel shows it to each
// student once. Answers are keyed by each question's title in kebab case. Every function takes the
// tenant explicitly.
import { asc, count, desc, eq, ne } from 'drizzle-orm'
import { z } from 'zod'
import type { ShardDb } from '#app/db/client.server.ts'
import { surveyResponses, surveys, users } from '#app/db/schema.server.ts'
import { kebabCase, SURVEY_DESCRIPTION_MAX, SURVEY_TITLE_MAX } from '#app/domain/survey-fields.ts'
import { newId } from '#app/utils/ids.server.ts'
import { msg } from '#app/utils/validation.ts'
import { ofTenant } from './tenant-scope.server.ts'

export const SURVEY_QUESTIONS_MAX = 30
export const QUESTION_TITLE_MAX = 300
export const QUESTION_OPTIONS_MAX = 20
export const ANSWER_MAX = 2000

export const QUESTION_TYPES = ['text', 'textarea', 'select', 'checkbox_group', 'separator'] as const
export const TEXT_INPUT_TYPES = ['text', 'checkbox', 'radio'] as const

const title = z
  .string()
  .transform((s) => s.trim())
  .pipe(z.string().min(1).max(QUESTION_TITLE_MAX))
const placeholder = z.string().trim().max(200).optional().default('')
const option = z.object({ label: z.string().trim().min(1).max(200), value: z.string().trim().min(1).max(200) })
const options = z
  .array(option)
  .min(1, { message: msg('engagement.survey.error.options') })
  .max(QUESTION_OPTIONS_MAX)
  .refine((list) => new Set(list.map((o) => o.value)).size === list.length, { message: msg('engagement.survey.error.option_values') })

/** Seed 000 §3 "Form question": text (inputType text, checkbox or radio), textarea, select, checkbox group, separator. */
export const QuestionSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('text'), inputType: z.enum(TEXT_INPUT_TYPES).default('text'), title, placeholder, required: z.boolean().default(false), options: z.array(option).max(QUESTION_OPTIONS_MAX).default([]) }),
    z.object({ type: z.literal('textarea'), title, placeholder, required: z.boolean().default(false) }),
    z.object({ type: z.literal('select'), title, placeholder, required: z.boolean().default(false), options }),
    z.object({ type: z.literal('checkbox_group'), title, required: z.boolean().default(false), options }),
    /** A heading between questions; its title is formatted text (markdown). No answer. */
    z.object({ type: z.literal('separator'), title: z.string().trim().min(1).max(QUESTION_TITLE_MAX * 4) }),
  ])
  .superRefine((q, ctx) => {
    // A radio text question needs its choices like a select does.
    if (q.type !== 'text' || q.inputType !== 'radio') return
    const parsed = options.safeParse(q.options)
    if (!parsed.success) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['options'], message: parsed.error.issues[0].message })
  })
export type SurveyQuestion = z.infer<typeof QuestionSchema>

export const QuestionsSchema = z
  .array(QuestionSchema)
  .max(SURVEY_QUESTIONS_MAX)
  .superRefine((list, ctx) => {
    const seen = new Set<string>()
    list.forEach((q, i) => {
      if (q.type === 'separator') return
      const key = kebabCase(q.title)
      if (!key) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [i, 'title'], message: msg('engagement.survey.error.title_key') })
      else if (seen.has(key)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [i, 'title'], message: msg('engagement.survey.error.duplicate', { title: q.title }) })
      seen.add(key)
    })
  })

/** The owner's survey form: title, markdown description, questions (JSON from the editor). */
export const SurveyInputSchema = z.object({
  title: z
    .string()
    .transform((s) => s.trim())
    .pipe(z.string().min(1).max(SURVEY_TITLE_MAX)),
  description: z.string().max(SURVEY_DESCRIPTION_MAX).default(''),
  questions: z
    .string()
    .max(200_000)
    .transform((raw, ctx) => {
      try {
        return JSON.parse(raw) as unknown
      } catch {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: msg('validation.invalid') })
        return z.NEVER
      }
    })
    .pipe(QuestionsSchema),
})
export type SurveyInput = z.infer<typeof SurveyInputSchema>

/** Stored JSON → questions; rows that do not validate any more are dropped rather than crash a page. */
export function parseQuestions(json: string): SurveyQuestion[] {
  let raw: unknown
  try {
    raw = JSON.parse(json)
  } catch {
    return []
  }
  if (!Array.isArray(raw)) return []
  return raw.flatMap((q) => {
    const parsed = QuestionSchema.safeParse(q)
    return parsed.success ? [parsed.data] : []
  })
}

export type SurveyAnswer = string | string[] | boolean
export type SurveyErrors = Record<string, string[]>

/**
 * Validate a response against the questions: only known keys, required answers present, choices
 * among the offered values. Errors are translation keys by answer key (`errors[key][0]`).
 */
export function validateResponse(questions: SurveyQuestion[], input: unknown): { ok: true; response: Record<string, SurveyAnswer> } | { ok: false; errors: SurveyErrors } {
  const given = input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {}
  const errors: SurveyErrors = {}
  const response: Record<string, SurveyAnswer> = {}
  const known = new Set<string>()
  for (const q of questions) {
    if (q.type === 'separator') continue
    const key = kebabCase(q.title)
    known.add(key)
    const value = given[key]
    const fail = (k: string) => (errors[key] = [k])
    if (q.type === 'checkbox_group') {
      const list = Array.isArray(value) ? value : value === undefined || value === null || value === '' ? [] : [value]
      if (!list.every((v): v is string => typeof v === 'string')) {
        fail('validation.invalid')
        continue
      }
      const offered = new Set(q.options.map((o) => o.value))
      if (!list.every((v) => offered.has(v))) fail('validation.in')
      else if (q.required && list.length === 0) fail('validation.required')
      else response[key] = [...new Set(list)]
      continue
    }
    if (q.type === 'text' && q.inputType === 'checkbox') {
      const checked = value === true || value === 'on' || value === 'true' || value === '1'
      if (value !== undefined && value !== null && typeof value !== 'boolean' && typeof value !== 'string') fail('validation.invalid')
      else if (q.required && !checked) fail('validation.required')
      else response[key] = checked
      continue
    }
    if (value !== undefined && value !== null && typeof value !== 'string') {
      fail('validation.invalid')
      continue
    }
    const text = (value ?? '').trim()
    if (text.length > ANSWER_MAX) fail('engagement.survey.error.too_long')
    else if (q.required && text === '') fail('validation.required')
    else if (text !== '' && (q.type === 'select' || (q.type === 'text' && q.inputType === 'radio')) && !q.options.some((o) => o.value === text)) fail('validation.in')
    else response[key] = text
  }
  for (const key of Object.keys(given)) if (!known.has(key)) errors[key.slice(0, 80)] ??= ['engagement.survey.error.unknown']
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, response }
}

// ---- storage -----------------------------------------------------------------------------------

export type SurveyRow = typeof surveys.$inferSelect

/** The school's active site survey, if any (the /panel shows its modal). */
export async function getActiveSurveyId(db: ShardDb, tenantId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: surveys.id })
    .from(surveys)
    .where(ofTenant(surveys, tenantId, eq(surveys.active, true)))
    .orderBy(desc(surveys.updatedAt))
    .limit(1)
  return row?.id ?? null
}

export async function getSurvey(db: ShardDb, tenantId: string, surveyId: string) {
  const [row] = await db
    .select()
    .from(surveys)
    .where(ofTenant(surveys, tenantId, eq(surveys.id, surveyId)))
    .limit(1)
  return row ?? null
}

/** Every survey of the school with its number of responses, newest first. */
export async function listSurveys(db: ShardDb, tenantId: string) {
  const counts = db
    .select({ surveyId: surveyResponses.surveyId, responses: count().as('responses') })
    .from(surveyResponses)
    .where(ofTenant(surveyResponses, tenantId))
    .groupBy(surveyResponses.surveyId)
    .as('counts')
  const rows = await db
    .select({ id: surveys.id, title: surveys.title, active: surveys.active, createdAt: surveys.createdAt, updatedAt: surveys.updatedAt, questions: surveys.questions, responses: counts.responses })
    .from(surveys)
    .leftJoin(counts, eq(counts.surveyId, surveys.id))
    .where(ofTenant(surveys, tenantId))
    .orderBy(desc(surveys.createdAt), desc(surveys.id))
  return rows.map(({ questions, ...r }) => ({ ...r, responses: r.responses ?? 0, questionCount: parseQuestions(questions).filter((q) => q.type !== 'separator').length }))
}

export async function createSurvey(db: ShardDb, tenantId: string, input: { title: string; description?: string; questions?: SurveyQuestion[] }, now = Date.now()) {
  const [row] = await db
    .insert(surveys)
    .values({ id: newId(), tenantId, title: input.title, description: input.description ?? '', questions: JSON.stringify(input.questions ?? []), active: false, createdAt: now, updatedAt: now })
    .returning()
  return row
}

/** false when the survey is not this school's. */
export async function updateSurvey(db: ShardDb, tenantId: string, surveyId: string, input: { title: string; description: string; questions: SurveyQuestion[] }, now = Date.now()) {
  const rows = await db
    .update(surveys)
    .set({ title: input.title, description: input.description, questions: JSON.stringify(input.questions), updatedAt: now })
    .where(ofTenant(surveys, tenantId, eq(surveys.id, surveyId)))
    .returning({ id: surveys.id })
  return rows.length > 0
}

/** Make this survey the active one (every other survey of the school goes inactive) or deactivate it. */
export async function setSurveyActive(db: ShardDb, tenantId: string, surveyId: string, active: boolean, now = Date.now()) {
  const survey = await getSurvey(db, tenantId, surveyId)
  if (!survey) return false
  if (!active) {
    await db.update(surveys).set({ active: false, updatedAt: now }).where(ofTenant(surveys, tenantId, eq(surveys.id, surveyId)))
    return true
  }
  await db.batch([
    db
      .update(surveys)
      .set({ active: false })
      .where(ofTenant(surveys, tenantId, eq(surveys.active, true), ne(surveys.id, surveyId))),
    db.update(surveys).set({ active: true, updatedAt: now }).where(ofTenant(surveys, tenantId, eq(surveys.id, surveyId))),
  ])
  return true
}

export async function deleteSurvey(db: ShardDb, tenantId: string, surveyId: string) {
  const rows = await db
    .delete(surveys)
    .where(ofTenant(surveys, tenantId, eq(surveys.id, surveyId)))
    .returning({ id: surveys.id })
  return rows.length > 0
}

/** When this user answered this survey, or null. */
export async function getRespondedAt(db: ShardDb, tenantId: string, surveyId: string, userId: string) {
  const [row] = await db
    .select({ respondedAt: surveyResponses.respondedAt })
    .from(surveyResponses)
    .where(ofTenant(surveyResponses, tenantId, eq(surveyResponses.surveyId, surveyId), eq(surveyResponses.userId, userId)))
    .limit(1)
  return row?.respondedAt ?? null
}

/** Store the answer once per user; 'already' when they had answered (nothing changes). */
export async function saveSurveyResponse(db: ShardDb, tenantId: string, surveyId: string, userId: string, response: Record<string, SurveyAnswer>, now = Date.now()) {
  const rows = await db
    .insert(surveyResponses)
    .values({ id: newId(), tenantId, surveyId, userId, response: JSON.stringify(response), respondedAt: now })
    .onConflictDoNothing()
    .returning({ id: surveyResponses.id })
  return rows.length > 0 ? ('saved' as const) : ('already' as const)
}

/** Responses of a survey with the respondent's name and email, oldest first (the owner's table). */
export async function listSurveyResponses(db: ShardDb, tenantId: string, surveyId: string) {
  const rows = await db
    .select({ id: surveyResponses.id, response: surveyResponses.response, respondedAt: surveyResponses.respondedAt, name: users.name, email: users.email })
    .from(surveyResponses)
    .innerJoin(users, ofTenant(users, tenantId, eq(users.id, surveyResponses.userId)))
    .where(ofTenant(surveyResponses, tenantId, eq(surveyResponses.surveyId, surveyId)))
    .orderBy(asc(surveyResponses.respondedAt))
  return rows.map((r) => {
    let answers: Record<string, SurveyAnswer> = {}
    try {
      answers = JSON.parse(r.response) as Record<string, SurveyAnswer>
    } catch {
      /* a broken row shows empty answers */
    }
    return { id: r.id, respondedAt: r.respondedAt, name: r.name, email: r.email, answers }
  })
}

export { kebabCase, SURVEY_DESCRIPTION_MAX, SURVEY_TITLE_MAX }
