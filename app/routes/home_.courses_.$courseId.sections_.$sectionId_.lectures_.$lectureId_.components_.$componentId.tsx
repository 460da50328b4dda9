// POST .../components/:componentId — update (intent=update, same kind) or delete (intent=delete).
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { lecturePath } from '#app/domain/course-paths.ts'
import { ComponentSchema, requireLecture, resourceError } from '#app/courses/lecture-form.server.ts'
import { deleteComponent, getComponent, updateComponent } from '#app/models/course-content.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { actionOnlyLoader, notFound } from '#app/utils/request.server.ts'
import { parseWith, readFormFields } from '#app/utils/validation.ts'

export const loader = actionOnlyLoader

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { tenant, course, section, lecture } = await requireLecture(request, context, params)
  const component = await getComponent(context.db, tenant.id, course.id, section.id, lecture.id, params.componentId ?? '')
  if (!component) notFound()
  const back = (done: 'deleted' | 'saved') => redirectWithFlash(request, `${lecturePath(course.id, section.id, lecture.id)}#components`, { done, message: `courses.done.${done}` })
  const form = await readFormFields(request)
  if (!form) return resourceError(request, `${lecturePath(course.id, section.id, lecture.id)}#components`, { form: { key: 'validation.invalid' } })
  if (form.intent === 'delete') {
    await deleteComponent(context.db, tenant.id, course.id, section.id, lecture.id, component.id)
    return back('deleted')
  }
  if (form.intent !== 'update') return resourceError(request, `${lecturePath(course.id, section.id, lecture.id)}#components`, { form: { key: 'validation.invalid' } })
  // The kind never changes: the stored one decides, whatever the form says.
  const parsed = parseWith(ComponentSchema, { ...form, kind: component.data.kind })
  if (!parsed.ok) return resourceError(request, `${lecturePath(course.id, section.id, lecture.id)}#components`, parsed.errors, parsed.values)
  if (!(await updateComponent(context.db, tenant.id, course.id, section.id, lecture.id, component.id, parsed.data))) {
    return resourceError(request, `${lecturePath(course.id, section.id, lecture.id)}#components`, { fileKey: { key: 'courses.component.file_required' } }, {}, 422)
  }
  return back('saved')
}
