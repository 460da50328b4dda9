// /home/exams/:examId (issue 24 item 1): the exam's settings and questions (add, edit, delete,
// reorder) and its results per student (best and last attempt, attempts used, a link per attempt,
// reset). Another school's id is 404 before sign-in is asked for; bad input answers field errors.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { ExamEditorPage, type ExamEditorData } from '#app/exams/components/exam-editor.tsx'
import { ExamSettingsSchema, MoveQuestionSchema, QuestionRefSchema, QuestionSchema, ResetSchema } from '#app/exams/forms.server.ts'
import { examResults } from '#app/exams/results.server.ts'
import { resetAttempts } from '#app/models/exam-attempt.server.ts'
import { addExamQuestion, deleteExamQuestion, getExam, listExamQuestions, moveExamQuestion, updateExamQuestion, updateExamSettings } from '#app/models/exam.server.ts'
import { requireStaff, staffAction } from '#app/auth/staff.server.ts'
import { parseOptions } from '#app/exams/grading.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { getLocale, getT, notFound, requireSchool } from '#app/utils/request.server.ts'
import type { FieldErrors, FormValues } from '#app/utils/validation.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.pageTitle }]

const examId = (params: Record<string, string | undefined>) => String(params.examId ?? '').slice(0, 64)

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  // Another school's id: 404 for everyone, before sign-in is asked for.
  const found = await getExam(context.db, tenant.id, examId(params))
  if (!found) notFound()
  await requireStaff({ request, context })
  const [questions, results] = await Promise.all([listExamQuestions(context.db, tenant.id, found.exam.id), examResults(context.db, tenant.id, found.exam.id, getLocale(request, context))])
  const data: ExamEditorData = {
    exam: found.exam,
    lecture: found.lecture,
    course: found.course,
    questions: questions.map((q) => ({ id: q.id, kind: q.kind, prompt: q.prompt, points: q.points, options: parseOptions(q.options) })),
    results,
  }
  return { pageTitle: `${found.lecture.title} · ${getT(request, context)('exams.title')}`, ...data }
}

export const action = staffAction({
  load: async (tenant, { context, params }) => (await getExam(context.db, tenant.id, examId(params))) ?? notFound(),
  intents: (intent) => {
    const back = (id: string, hash = '') => `/home/exams/${id}${hash}`
    return {
      settings: intent(ExamSettingsSchema, async (input, { tenant, request, context, loaded }) => {
        await updateExamSettings(context.db, tenant.id, loaded.exam.id, input)
        throw redirectWithFlash(request, back(loaded.exam.id), { done: 'saved', message: 'exams.done.saved' }, { status: 303 })
      }),
      question: intent(QuestionSchema, async ({ questionId, ...input }, { tenant, request, context, loaded }) => {
        if (questionId) {
          if (!(await updateExamQuestion(context.db, tenant.id, loaded.exam.id, questionId, input))) notFound()
        } else await addExamQuestion(context.db, tenant.id, loaded.exam.id, input)
        throw redirectWithFlash(request, back(loaded.exam.id, '#questions'), { done: 'saved', message: questionId ? 'exams.done.question_saved' : 'exams.done.question_added' }, { status: 303 })
      }),
      delete_question: intent(QuestionRefSchema, async ({ questionId }, { tenant, request, context, loaded }) => {
        if (!(await deleteExamQuestion(context.db, tenant.id, loaded.exam.id, questionId))) notFound()
        throw redirectWithFlash(request, back(loaded.exam.id, '#questions'), { done: 'deleted', message: 'exams.done.question_deleted' }, { status: 303 })
      }),
      move_question: intent(MoveQuestionSchema, async ({ questionId, move }, { tenant, request, context, loaded }) => {
        await moveExamQuestion(context.db, tenant.id, loaded.exam.id, questionId, move)
        throw redirectWithFlash(request, back(loaded.exam.id, '#questions'), { done: 'saved', message: 'exams.done.question_moved' }, { status: 303 })
      }),
      reset: intent(ResetSchema, async ({ userId }, { tenant, request, context, loaded }) => {
        await resetAttempts(context.db, tenant.id, loaded.exam.id, userId)
        throw redirectWithFlash(request, back(loaded.exam.id, '#results'), { done: 'saved', message: 'exams.done.reset' }, { status: 303 })
      }),
    }
  },
})

export default function ExamPage() {
  const data = useLoaderData<typeof loader>()
  const answer = useActionData<{ errors: FieldErrors; values: FormValues }>()
  return <ExamEditorPage data={data} errors={answer?.errors ?? {}} values={answer?.values ?? null} />
}
