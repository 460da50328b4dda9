// POST /home/courses/:courseId/sections/order — reorder sections: the whole order (drag and drop,
// keyboard) or one step of one section (the Move up / Move down buttons, no JavaScript needed).
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { curriculumPath } from '#app/domain/course-paths.ts'
import { OrderSchema, requireCourse, resourceError } from '#app/courses/lecture-form.server.ts'
import { moveSection, reorderSections } from '#app/models/course-content.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { actionOnlyLoader } from '#app/utils/request.server.ts'
import { parseForm } from '#app/utils/validation.ts'

export const loader = actionOnlyLoader

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { tenant, course } = await requireCourse(request, context, params)
  const parsed = await parseForm(OrderSchema, request)
  if (!parsed.ok) return resourceError(request, curriculumPath(course.id), { form: { key: 'courses.order.invalid' } }, {})
  const data = parsed.data
  const ok = 'order' in data ? await reorderSections(context.db, tenant.id, course.id, data.order) : await moveSection(context.db, tenant.id, course.id, data.id, data.move)
  // A stale page (a section added or removed meanwhile) or an item already at the end: nothing written.
  if (!ok) return resourceError(request, curriculumPath(course.id), { form: { key: 'courses.order.invalid' } }, {}, 409)
  return redirectWithFlash(request, curriculumPath(course.id), { done: 'order', message: 'courses.done.order' })
}
