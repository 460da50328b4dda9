// The owner's exam forms (issue 24 item 1): zod schemas with translation keys as messages, so a
// mistake answers field errors in the owner's language and writes nothing.
import { z } from 'zod'
import { EXAM_QUESTION_KINDS } from '#app/db/schema.server.ts'
import type { ExamQuestionInput, ExamSettings } from '#app/models/exam.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { msg } from '#app/utils/validation.ts'

/** Answer slots of a choice question in the form (blank ones are dropped). */
export const OPTION_SLOTS = 6
export const POINTS_MAX = 100
export const PROMPT_MAX = 2000
export const OPTION_MAX = 500

const checkbox = z
  .literal('on')
  .optional()
  .transform((v) => v === 'on')

const parseInteger = (value: string, min: number, max: number) => (/^\d{1,6}$/.test(value) && Number(value) >= min && Number(value) <= max ? Number(value) : null)

/** A whole number between min and max. */
const integerField = (min: number, max: number, key: string) =>
  z
    .string()
    .optional()
    .transform((s, ctx): number => {
      const n = parseInteger((s ?? '').trim(), min, max)
      if (n === null) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: msg(key, { min, max }) })
        return z.NEVER
      }
      return n
    })

/** A whole number between min and max, or `empty` when left blank. */
const optionalInteger = <E extends number | null>(min: number, max: number, key: string, empty: E) =>
  z
    .string()
    .optional()
    .transform((s, ctx): number | E => {
      const v = (s ?? '').trim()
      if (v === '') return empty
      const n = parseInteger(v, min, max)
      if (n === null) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: msg(key, { min, max }) })
        return z.NEVER
      }
      return n
    })

export const ExamSettingsSchema = z
  .object({
    passPercent: integerField(0, 100, 'exams.error.pass_percent'),
    attemptsAllowed: optionalInteger(0, 100, 'exams.error.attempts', 0),
    timeLimitMinutes: optionalInteger(1, 1440, 'exams.error.time_limit', null),
    shuffleQuestions: checkbox,
    shuffleAnswers: checkbox,
    showAnswers: checkbox,
    required: checkbox,
  })
  .transform((v): ExamSettings => v)

const line = (max: number) =>
  z
    .string()
    .optional()
    .transform((s) => (s ?? '').replace(/\r\n/g, '\n').trim())
    .pipe(
      z
        .string()
        .max(max)
        .refine((s) => !/[\u0000-\u0008\u000b-\u001f\u007f]/.test(s), { message: msg('validation.invalid') }),
    )

const optionId = z
  .string()
  .optional()
  .transform((s) => (s && /^[A-Za-z0-9_-]{1,64}$/.test(s) ? s : null))

export const QuestionSchema = z
  .object({
    questionId: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/)
      .optional(),
    kind: z.enum(EXAM_QUESTION_KINDS),
    prompt: line(PROMPT_MAX).refine((s) => s.length > 0, { message: msg('exams.error.prompt_required') }),
    points: integerField(1, POINTS_MAX, 'exams.error.points'),
    ...Object.fromEntries(Array.from({ length: OPTION_SLOTS }, (_, i) => [`option${i}`, line(OPTION_MAX)])),
    ...Object.fromEntries(Array.from({ length: OPTION_SLOTS }, (_, i) => [`optionId${i}`, optionId])),
    ...Object.fromEntries(Array.from({ length: OPTION_SLOTS }, (_, i) => [`correct${i}`, checkbox])),
  })
  .transform((v, ctx): ExamQuestionInput & { questionId?: string } => {
    const raw = v as unknown as Record<string, string | boolean | null | undefined>
    const options = Array.from({ length: OPTION_SLOTS }, (_, i) => ({
      id: (raw[`optionId${i}`] as string | null) ?? newId(8),
      text: String(raw[`option${i}`] ?? ''),
      correct: raw[`correct${i}`] === true,
    })).filter((o) => o.text)
    if (v.kind !== 'text') {
      const correct = options.filter((o) => o.correct).length
      if (options.length < 2) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['options'], message: msg('exams.error.options_min') })
      else if (correct === 0) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['options'], message: msg('exams.error.correct_required') })
      else if (v.kind === 'single' && correct > 1) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['options'], message: msg('exams.error.single_one_correct') })
      // Ids must stay distinct (a tampered form could repeat one).
      if (new Set(options.map((o) => o.id)).size !== options.length) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['options'], message: msg('validation.invalid') })
    }
    return { questionId: v.questionId, kind: v.kind, prompt: v.prompt, points: v.points, options: v.kind === 'text' ? [] : options }
  })

const id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { message: msg('validation.invalid') })

export const QuestionRefSchema = z.object({ questionId: id })
export const MoveQuestionSchema = z.object({ questionId: id, move: z.enum(['up', 'down']) })
export const ResetSchema = z.object({ userId: id, confirm: z.literal('on', { errorMap: () => ({ message: msg('exams.error.reset_confirm') }) }) })

/** The owner's points per text question (`points_{questionId}`), each 0..the question's points. */
export function gradeSchema(questions: ReadonlyArray<{ id: string; points: number }>) {
  return z.object(Object.fromEntries(questions.map((q) => [`points_${q.id}`, integerField(0, q.points, 'exams.error.grade_points')]))).transform((v) => {
    const out: Record<string, number> = {}
    for (const q of questions) out[q.id] = (v as Record<string, number>)[`points_${q.id}`]!
    return out
  })
}
