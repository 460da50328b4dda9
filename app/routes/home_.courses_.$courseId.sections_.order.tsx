// POST /home/courses/:courseId/sections/order — reorder sections: the whole order (drag and drop,
// keyboard) or one step of one section (the Move up / Move down buttons, no JavaScript needed).
import { redirect, type ActionFunctionArgs } from '@remix-run/cloudflare'
import { curriculumPath } from '#app/components/course-paths.tsx'
import { OrderSchema, requireCourse, resourceError } from '#app/media/lecture-form.server.ts'
import { moveSection, reorderSections } from '#app/models/course-content.server.ts'
import { notFound } from '#app/utils/request.server.ts'
import { parseForm } from '#app/utils/validation.ts'

export async function loader() {
  notFound()
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { tenant, course } = await requireCourse(request, context, params)
  const parsed = await parseForm(OrderSchema, request)
  if (!parsed.ok) return resourceError(request, curriculumPath(course.id), { form: { key: 'courses.order.invalid' } }, {})
  const data = parsed.data
  const ok = 'order' in data ? await reorderSections(context.db, tenant.id, course.id, data.order) : await moveSection(context.db, tenant.id, course.id, data.id, data.move)
  // A stale page (a section added or removed meanwhile) or an item already at the end: nothing written.
  if (!ok) return resourceError(request, curriculumPath(course.id), { form: { key: 'courses.order.invalid' } }, {}, 409)
  return redirect(`${curriculumPath(course.id)}?done=order`)
}
