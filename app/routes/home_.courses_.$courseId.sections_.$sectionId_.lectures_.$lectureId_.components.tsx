// POST .../lectures/:lectureId/components — store a component (text, file or quiz) at the end.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { lecturePath } from '#app/domain/course-paths.ts'
import { ComponentSchema, requireLecture, resourceError } from '#app/courses/lecture-form.server.ts'
import { createComponent } from '#app/models/course-content.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { actionOnlyLoader } from '#app/utils/request.server.ts'
import { parseForm } from '#app/utils/validation.ts'

export const loader = actionOnlyLoader

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { tenant, course, section, lecture } = await requireLecture(request, context, params)
  const parsed = await parseForm(ComponentSchema, request)
  if (!parsed.ok) return resourceError(request, `${lecturePath(course.id, section.id, lecture.id)}#components`, parsed.errors, parsed.values)
  const created = await createComponent(context.db, tenant.id, course.id, section.id, lecture.id, parsed.data)
  // The lecture exists (checked above): only a file that is not this school's upload fails here.
  if (!created) return resourceError(request, `${lecturePath(course.id, section.id, lecture.id)}#components`, { fileKey: { key: 'courses.component.file_required' } }, {}, 422)
  return redirectWithFlash(request, `${lecturePath(course.id, section.id, lecture.id)}#components`, { done: 'component_created', message: 'courses.done.component_created' })
}
