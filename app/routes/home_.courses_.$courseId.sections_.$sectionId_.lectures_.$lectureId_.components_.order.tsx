// POST .../lectures/:lectureId/components/order — reorder a lecture's components.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { lecturePath } from '#app/domain/course-paths.ts'
import { OrderSchema, requireLecture, resourceError } from '#app/courses/lecture-form.server.ts'
import { moveComponent, reorderComponents } from '#app/models/course-content.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { actionOnlyLoader } from '#app/utils/request.server.ts'
import { parseForm } from '#app/utils/validation.ts'

export const loader = actionOnlyLoader

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { tenant, course, section, lecture } = await requireLecture(request, context, params)
  const parsed = await parseForm(OrderSchema, request)
  if (!parsed.ok) return resourceError(request, `${lecturePath(course.id, section.id, lecture.id)}#components`, { form: { key: 'courses.order.invalid' } }, {})
  const data = parsed.data
  const ok =
    'order' in data
      ? await reorderComponents(context.db, tenant.id, course.id, section.id, lecture.id, data.order)
      : await moveComponent(context.db, tenant.id, course.id, section.id, lecture.id, data.id, data.move)
  if (!ok) return resourceError(request, `${lecturePath(course.id, section.id, lecture.id)}#components`, { form: { key: 'courses.order.invalid' } }, {}, 409)
  return redirectWithFlash(request, `${lecturePath(course.id, section.id, lecture.id)}#components`, { done: 'order', message: 'courses.done.order' })
}
