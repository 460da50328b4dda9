// POST /home/courses/:courseId/sections/:sectionId/lectures/order — reorder the section's lectures
// (the whole order, which may bring lectures over from other sections of the course, or one step).
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { curriculumPath } from '#app/domain/course-paths.ts'
import { OrderSchema, requireSection, resourceError } from '#app/courses/lecture-form.server.ts'
import { moveLecture, reorderLectures } from '#app/models/course-content.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { actionOnlyLoader } from '#app/utils/request.server.ts'
import { parseForm } from '#app/utils/validation.ts'

export const loader = actionOnlyLoader

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { tenant, course, section } = await requireSection(request, context, params)
  const parsed = await parseForm(OrderSchema, request)
  if (!parsed.ok) return resourceError(request, curriculumPath(course.id), { form: { key: 'courses.order.invalid' } }, {})
  const data = parsed.data
  const ok =
    'order' in data
      ? await reorderLectures(context.db, tenant.id, course.id, section.id, data.order)
      : await moveLecture(context.db, tenant.id, course.id, section.id, data.id, data.move)
  if (!ok) return resourceError(request, curriculumPath(course.id), { form: { key: 'courses.order.invalid' } }, {}, 409)
  return redirectWithFlash(request, curriculumPath(course.id), { done: 'order', message: 'courses.done.order' })
}
