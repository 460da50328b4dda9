// POST .../lectures/:lectureId/components — store a component (text, file or quiz) at the end.
import { redirect, type ActionFunctionArgs } from '@remix-run/cloudflare'
import { lecturePath } from '#app/components/course-paths.tsx'
import { ComponentSchema, requireLecture, resourceError } from '#app/media/lecture-form.server.ts'
import { createComponent } from '#app/models/course-content.server.ts'
import { notFound } from '#app/utils/request.server.ts'
import { parseForm } from '#app/utils/validation.ts'

export async function loader() {
  notFound()
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { tenant, course, section, lecture } = await requireLecture(request, context, params)
  const parsed = await parseForm(ComponentSchema, request)
  if (!parsed.ok) return resourceError(request, `${lecturePath(course.id, section.id, lecture.id)}#components`, parsed.errors, parsed.values)
  const created = await createComponent(context.db, tenant.id, course.id, section.id, lecture.id, parsed.data)
  // The lecture exists (checked above): only a file that is not this school's upload fails here.
  if (!created) return resourceError(request, `${lecturePath(course.id, section.id, lecture.id)}#components`, { fileKey: { key: 'courses.component.file_required' } }, {}, 422)
  return redirect(`${lecturePath(course.id, section.id, lecture.id)}?done=component_created#components`)
}
