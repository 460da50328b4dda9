// /home/courses/:courseId/sections/:sectionId — rename a section, or delete it (type DELETE) with
// its lectures.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { CourseDeleteForm } from '#app/courses/components/course-delete-form.tsx'
import { Button, Card, Field, PageTitle } from '#app/components/ui.tsx'
import { curriculumPath, TITLE_MAX } from '#app/domain/course-paths.ts'
import { requireSection, titleField } from '#app/courses/lecture-form.server.ts'
import { deleteSection, listSectionLectures, renameSection } from '#app/models/course-content.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { getT } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { msg, parseForm, type FieldErrors } from '#app/utils/validation.ts'

const ActionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('rename'), title: titleField('courses.section.title_required') }),
  z.object({ intent: z.literal('delete'), confirm: z.string().refine((s) => s.trim() === 'DELETE', { message: msg('courses.delete.confirm_mismatch') }) }),
])

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { tenant, course, section } = await requireSection(request, context, params)
  const lectures = await listSectionLectures(context.db, tenant.id, course.id, section.id)
  return {
    title: `${section.title} · ${course.title} · ${getT(request, context)('courses.curriculum')}`,
    course: { id: course.id, title: course.title },
    section: { id: section.id, title: section.title, lectureCount: lectures.length },
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { tenant, course, section } = await requireSection(request, context, params)
  const parsed = await parseForm(ActionSchema, request)
  if (!parsed.ok) return formError(parsed.errors, parsed.values)
  if (parsed.data.intent === 'rename') {
    await renameSection(context.db, tenant.id, course.id, section.id, parsed.data.title)
    return redirectWithFlash(request, curriculumPath(course.id), { done: 'saved', message: 'courses.done.saved' })
  }
  await deleteSection(context.db, tenant.id, course.id, section.id)
  return redirectWithFlash(request, curriculumPath(course.id), { done: 'deleted', message: 'courses.done.deleted' })
}

export default function SectionPage() {
  const { course, section } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const t = useT()
  const busy = useNavigation().state === 'submitting'
  const values = actionData?.values ?? {}
  const errors = (actionData?.errors ?? {}) as FieldErrors
  const errorsOf = (intent: string) => (values.intent === intent ? errors : {})
  return (
    <div className="space-y-6">
      <Link to={curriculumPath(course.id)} className="text-sm font-medium text-brand-700 hover:underline">
        ← {t('courses.back_to_curriculum', { title: course.title })}
      </Link>
      <PageTitle>{section.title}</PageTitle>
      <Card>
        <h2 className="text-lg font-semibold">{t('courses.section.rename')}</h2>
        <Form method="post" className="mt-3 flex flex-wrap items-start gap-3" noValidate>
          <input type="hidden" name="intent" value="rename" />
          <Field className="min-w-64 flex-1" label={t('courses.section.field.title')} name="title" maxLength={TITLE_MAX} defaultValue={values.intent === 'rename' ? values.title : section.title} error={errorsOf('rename').title} />
          <Button type="submit" className="mt-6" disabled={busy}>
            {t('courses.save')}
          </Button>
        </Form>
      </Card>
      <CourseDeleteForm title={t('courses.section.delete')} warning={t('courses.section.delete_warning', { count: section.lectureCount })} error={errorsOf('delete').confirm} />
    </div>
  )
}
