// /home/exams/:examId/attempts/:attemptId (issue 24 item 1): one attempt's answers; the owner grades
// text answers (0..the question's points) and the attempt becomes passed or failed (a pass completes
// the exam lecture for the student). Another school's exam or attempt is 404 before sign-in.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { ExamAttemptPage } from '#app/exams/components/exam-attempt.tsx'
import { answersOf, examQuestions, gradesOf, gradeTextAnswers, layoutOf } from '#app/exams/attempts.server.ts'
import { gradeSchema } from '#app/exams/forms.server.ts'
import { percentOf } from '#app/exams/grading.ts'
import { getAttempt } from '#app/models/exam-attempt.server.ts'
import { getExam } from '#app/models/exam.server.ts'
import { getUserById } from '#app/models/user.server.ts'
import { requireStaff, staffAction } from '#app/auth/staff.server.ts'
import { formatDateTime } from '#app/utils/dates.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { getT, notFound, requireSchool } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { parseWith, type FieldErrors, type FormValues } from '#app/utils/validation.ts'
import type { SchoolTenant } from '#app/domains/site.server.ts'
import type { AppLoadContext } from '@remix-run/cloudflare'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.pageTitle }]

const cut = (s: string | undefined) => String(s ?? '').slice(0, 64)

/** The exam and the attempt, both of this school and of each other; else 404. */
async function loadAttempt(tenant: SchoolTenant, context: AppLoadContext, params: Record<string, string | undefined>) {
  const found = await getExam(context.db, tenant.id, cut(params.examId))
  const attempt = found ? await getAttempt(context.db, tenant.id, found.exam.id, cut(params.attemptId)) : undefined
  if (!found || !attempt) notFound()
  return { ...found, attempt }
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  const { exam, lecture, course, attempt } = await loadAttempt(tenant, context, params)
  const { user: viewer } = await requireStaff({ request, context })
  const [questions, student] = await Promise.all([examQuestions(context.db, tenant.id, exam.id), getUserById(context.db, tenant.id, attempt.userId)])
  const answers = answersOf(attempt)
  const grades = gradesOf(attempt)
  const served = layoutOf(attempt)
    .questions.map((slot) => questions.find((q) => q.id === slot.id))
    .filter((q) => q !== undefined)
  return {
    pageTitle: `${lecture.title} · ${getT(request, context)('exams.attempt.title', { number: attempt.number })}`,
    canGrade: viewer.role === 'owner' && attempt.status === 'pending_review',
    exam: { id: exam.id, passPercent: exam.passPercent },
    lecture: { title: lecture.title },
    course: { title: course.title },
    student: { id: attempt.userId, name: student?.name ?? '', email: student?.email ?? '' },
    attempt: {
      id: attempt.id,
      number: attempt.number,
      status: attempt.status,
      score: attempt.score,
      maxScore: attempt.maxScore,
      percent: percentOf(attempt.score, attempt.maxScore),
      startedAt: formatDateTime(attempt.startedAt),
      submittedAt: attempt.submittedAt ? formatDateTime(attempt.submittedAt) : null,
      reset: attempt.resetAt !== null,
    },
    questions: served.map((q) => {
      const answer = answers[q.id]
      const chosen = Array.isArray(answer) ? answer : []
      return {
        id: q.id,
        kind: q.kind,
        prompt: q.prompt,
        points: q.points,
        earned: typeof grades[q.id] === 'number' ? grades[q.id]! : null,
        text: typeof answer === 'string' ? answer : '',
        options: q.options.map((o) => ({ id: o.id, text: o.text, correct: o.correct, chosen: chosen.includes(o.id) })),
      }
    }),
  }
}

export const action = staffAction({
  // Grading decides a student's pass: the owner's call (admins see the answers).
  roles: ['owner'],
  load: async (tenant, { context, params }) => loadAttempt(tenant, context, params),
  intents: (intent) => ({
    grade: intent(z.object({}).passthrough(), async (_input, { tenant, request, context, loaded, fields }) => {
      const { exam, attempt } = loaded
      const textQuestions = (await examQuestions(context.db, tenant.id, exam.id)).filter((q) => q.kind === 'text' && layoutOf(attempt).questions.some((s) => s.id === q.id))
      const parsed = parseWith(gradeSchema(textQuestions), fields)
      if (!parsed.ok) return formError(parsed.errors, parsed.values, 422)
      const graded = await gradeTextAnswers(context.db, tenant.id, exam, attempt, parsed.data)
      if (!graded.ok) return formError({ form: { key: 'exams.error.not_pending' } }, fields, 409)
      throw redirectWithFlash(
        request,
        `/home/exams/${exam.id}/attempts/${attempt.id}`,
        { done: 'saved', message: graded.status === 'passed' ? 'exams.done.graded_passed' : 'exams.done.graded_failed' },
        { status: 303 },
      )
    }),
  }),
})

export default function AttemptPage() {
  const data = useLoaderData<typeof loader>()
  const answer = useActionData<{ errors: FieldErrors; values: FormValues }>()
  return <ExamAttemptPage data={data} errors={answer?.errors ?? {}} values={answer?.values ?? null} />
}
