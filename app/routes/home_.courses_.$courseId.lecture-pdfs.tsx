// POST /home/courses/:courseId/lecture-pdfs (JSON, app/media/file-upload-client.ts): uploads of
// lecture PDFs (context lecture_pdf) for a course of this school; staff only, 404 otherwise.
//   { step: 'create', filename, extension, size, contentType } → FileInitiateBody | 400/413 { error, values }
//   { step: 'complete', path } → { file: { key, filename, size } } | 422 { error } | 404
//   { step: 'cancel', path }   → { cancelled } (drops an upload no lecture uses)
// The lecture or file component saved afterwards names the key; the model checks it is a ready
// lecture_pdf of this school.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { lecturePdfStep } from '#app/courses/lecture-pdfs.server.ts'
import { requireCourse } from '#app/courses/lecture-form.server.ts'
import { actionOnlyLoader } from '#app/utils/request.server.ts'

export const loader = actionOnlyLoader

export async function action({ request, context, params }: ActionFunctionArgs) {
  if (request.method !== 'POST') return Response.json({ error: 'error.not_found.title' }, { status: 405 })
  const { tenant, user } = await requireCourse(request, context, params)
  return lecturePdfStep(request, context, tenant.id, user.id)
}
