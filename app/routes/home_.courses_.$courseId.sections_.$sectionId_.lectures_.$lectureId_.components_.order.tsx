// POST .../lectures/:lectureId/components/order — reorder a lecture's components.
import { redirect, type ActionFunctionArgs } from '@remix-run/cloudflare'
import { lecturePath } from '#app/components/course-paths.tsx'
import { OrderSchema, requireLecture, resourceError } from '#app/media/lecture-form.server.ts'
import { moveComponent, reorderComponents } from '#app/models/course-content.server.ts'
import { notFound } from '#app/utils/request.server.ts'
import { parseForm } from '#app/utils/validation.ts'

export async function loader() {
  notFound()
}

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
  return redirect(`${lecturePath(course.id, section.id, lecture.id)}?done=order#components`)
}
