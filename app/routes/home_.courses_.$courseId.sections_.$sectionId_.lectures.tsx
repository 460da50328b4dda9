// /home/courses/:courseId/sections/:sectionId/lectures — creates a lecture (POST from the form at
// .../lectures/create); a mistake shows that form again here with the errors, nothing written.
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { NewLecturePage } from '#app/components/course-new-lecture.tsx'
import { lecturePath } from '#app/components/course-paths.tsx'
import { echoLecture, LectureSchema, newLectureData, requireSection } from '#app/media/lecture-form.server.ts'
import { createLecture } from '#app/models/course-content.server.ts'
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
  const result = await createLecture(context.db, tenant.id, course.id, section.id, input)
  if (!result) notFound()
  if (!result.ok) return formError({ [result.field]: { key: result.key } }, echoLecture(parsed.data))
  return redirect(`${lecturePath(course.id, section.id, result.lecture.id)}?done=created`)
}

export default function CreateLecture() {
  const actionData = useActionData<typeof action>()
  return <NewLecturePage data={useLoaderData<typeof loader>()} errors={actionData?.errors as FieldErrors | undefined} values={actionData?.values} />
}
