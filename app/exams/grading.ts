// Exams (issue 24 item 1): the pure rules — the layout an attempt serves (shuffled or not), what
// the page may see of a question (never the key before submission), grading on the server and the
// pass/fail decision. No I/O: the model, the use cases and the tests share it.
import { isQuizRight } from '#app/player/quiz.ts'

export type ExamQuestionKind = 'single' | 'multiple' | 'text'
export type ExamOption = { id: string; text: string; correct: boolean }
export type GradableQuestion = { id: string; kind: ExamQuestionKind; prompt: string; points: number; options: ExamOption[] }

/** The order one attempt served: questions, and the options of each. */
export type AttemptLayout = { questions: Array<{ id: string; options: string[] }> }
/** Chosen option ids (choice questions) or the typed text (text questions), by question id. */
export type AttemptAnswers = Record<string, string[] | string>
/** Points given per question (automatic for choice, by the owner for text). */
export type AttemptGrades = Record<string, number>

/** A submission this long after the deadline is still taken (a slow network); later ones are refused. */
export const SUBMIT_GRACE_MS = 30_000
export const TEXT_ANSWER_MAX = 5000

/** The `options` column as stored; anything unreadable is no options. */
export function parseOptions(json: string): ExamOption[] {
  try {
    const value = JSON.parse(json) as unknown
    if (!Array.isArray(value)) return []
    return value
      .filter((o): o is { id: unknown; text: unknown; correct: unknown } => typeof o === 'object' && o !== null)
      .map((o) => ({ id: String(o.id), text: String(o.text), correct: o.correct === true }))
  } catch {
    return []
  }
}

export function parseJsonObject<T>(json: string, fallback: T): T {
  try {
    const value = JSON.parse(json) as unknown
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as T) : fallback
  } catch {
    return fallback
  }
}

/** Fisher–Yates with an injectable random source (tests pin it). */
export function shuffled<T>(items: readonly T[], random: () => number = Math.random): T[] {
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

export function buildLayout(questions: readonly GradableQuestion[], settings: { shuffleQuestions: boolean; shuffleAnswers: boolean }, random: () => number = Math.random): AttemptLayout {
  const ordered = settings.shuffleQuestions ? shuffled(questions, random) : [...questions]
  return {
    questions: ordered.map((q) => {
      const ids = q.options.map((o) => o.id)
      return { id: q.id, options: settings.shuffleAnswers && q.kind !== 'text' ? shuffled(ids, random) : ids }
    }),
  }
}

/** What the page gets of a running attempt: prompts and option texts in the attempt's order, no key. */
export type PublicQuestion = { id: string; kind: ExamQuestionKind; prompt: string; points: number; options: Array<{ id: string; text: string }> }

export function publicQuestions(questions: readonly GradableQuestion[], layout: AttemptLayout): PublicQuestion[] {
  const byId = new Map(questions.map((q) => [q.id, q]))
  const out: PublicQuestion[] = []
  for (const slot of layout.questions) {
    const q = byId.get(slot.id)
    if (!q) continue
    const options = new Map(q.options.map((o) => [o.id, o]))
    // Options added after the attempt started are appended, removed ones skipped.
    const order = [...slot.options.filter((id) => options.has(id)), ...q.options.map((o) => o.id).filter((id) => !slot.options.includes(id))]
    out.push({ id: q.id, kind: q.kind, prompt: q.prompt, points: q.points, options: order.map((id) => ({ id, text: options.get(id)!.text })) })
  }
  return out
}

/** The answers of a submitted form: `q_{id}` (one value for single and text, several for multiple). */
export function readAnswers(questions: readonly GradableQuestion[], form: (name: string) => string[]): AttemptAnswers {
  const answers: AttemptAnswers = {}
  for (const q of questions) {
    const values = form(`q_${q.id}`)
    if (q.kind === 'text') {
      const text = (values[0] ?? '').replace(/\r\n/g, '\n').trim().slice(0, TEXT_ANSWER_MAX)
      if (text) answers[q.id] = text
    } else {
      const known = new Set(q.options.map((o) => o.id))
      const chosen = [...new Set(values.filter((v) => known.has(v)))]
      answers[q.id] = q.kind === 'single' ? chosen.slice(0, 1) : chosen
    }
  }
  return answers
}

/** Whether a choice answer is right: single = the chosen option is correct; multiple = every box matches. */
export function isChoiceRight(question: GradableQuestion, chosen: readonly string[]): boolean {
  if (question.kind === 'single') return chosen.length === 1 && question.options.some((o) => o.id === chosen[0] && o.correct)
  return isQuizRight(
    question.options,
    question.options.map((o) => chosen.includes(o.id)),
  )
}

export type Graded = { grades: AttemptGrades; pending: string[]; score: number; maxScore: number }

/**
 * Grades what can be graded now: choice questions get all or none of their points; a text answer
 * waits for the owner (`pending`) unless `ownerGrades` holds its points; an empty text answer is 0.
 */
export function gradeAnswers(questions: readonly GradableQuestion[], answers: AttemptAnswers, ownerGrades: AttemptGrades = {}): Graded {
  const grades: AttemptGrades = {}
  const pending: string[] = []
  let score = 0
  let maxScore = 0
  for (const q of questions) {
    maxScore += q.points
    const answer = answers[q.id]
    if (q.kind === 'text') {
      if (typeof answer !== 'string' || answer === '') grades[q.id] = 0
      else if (typeof ownerGrades[q.id] === 'number') grades[q.id] = Math.max(0, Math.min(q.points, Math.floor(ownerGrades[q.id]!)))
      else {
        pending.push(q.id)
        continue
      }
    } else {
      grades[q.id] = isChoiceRight(q, Array.isArray(answer) ? answer : []) ? q.points : 0
    }
    score += grades[q.id]!
  }
  return { grades, pending, score, maxScore }
}

/** Percent of the points, rounded down (a 59.9 % is not a 60 % pass). */
export const percentOf = (score: number, maxScore: number) => (maxScore <= 0 ? 0 : Math.floor((score * 100) / maxScore))

export function passes(score: number, maxScore: number, passPercent: number) {
  return maxScore > 0 && score * 100 >= passPercent * maxScore
}

export function decide(graded: Graded, passPercent: number): 'passed' | 'failed' | 'pending_review' {
  if (graded.pending.length > 0) return 'pending_review'
  return passes(graded.score, graded.maxScore, passPercent) ? 'passed' : 'failed'
}

/** Attempts left for a student; null = unlimited. Reset attempts no longer count. */
export function attemptsLeft(attemptsAllowed: number, counted: number): number | null {
  return attemptsAllowed === 0 ? null : Math.max(0, attemptsAllowed - counted)
}

/** Whether a submission at `now` is past the deadline and its grace. */
export const isPastDeadline = (deadlineAt: number | null, now: number) => deadlineAt !== null && now > deadlineAt + SUBMIT_GRACE_MS
