// /home/courses/:courseId/sections/:sectionId/lectures — creates a lecture (POST from the form at
// .../lectures/create); a mistake shows that form again here with the errors, nothing written.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { NewLecturePage } from '#app/courses/components/course-new-lecture.tsx'
import { lecturePath } from '#app/domain/course-paths.ts'
import { echoLecture, LectureSchema, newLectureData, requireSection } from '#app/courses/lecture-form.server.ts'
import { createLecture } from '#app/models/course-content.server.ts'
import { createExamLecture } from '#app/models/exam.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { notFound } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { parseForm, type FieldErrors } from '#app/utils/validation.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return newLectureData(request, context, params)
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { tenant, course, section } = await requireSection(request, context, params)
  const parsed = await parseForm(LectureSchema, request)
  if (!parsed.ok) return formError(parsed.errors, parsed.values)
  const { sectionId: _, ...input } = parsed.data
  if (input.kind === 'exam') {
    // An exam lecture and its settings row in one batch; the questions are edited on the exam's page.
    const { exam } = await createExamLecture(context.db, tenant.id, course.id, section.id, input)
    return redirectWithFlash(request, `/home/exams/${exam.id}`, { done: 'created', message: 'exams.done.created' })
  }
  const result = await createLecture(context.db, tenant.id, course.id, section.id, input)
  if (!result) notFound()
  if (!result.ok) return formError({ [result.field]: { key: result.key } }, echoLecture(parsed.data))
  return redirectWithFlash(request, lecturePath(course.id, section.id, result.lecture.id), { done: 'created', message: 'courses.done.created' })
}

export default function CreateLecture() {
  const actionData = useActionData<typeof action>()
  return <NewLecturePage data={useLoaderData<typeof loader>()} errors={actionData?.errors as FieldErrors | undefined} values={actionData?.values} />
}
