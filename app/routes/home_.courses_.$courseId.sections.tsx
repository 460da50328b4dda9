// /home/courses/:courseId/sections — the curriculum: sections with their lectures, add a section,
// reorder sections and lectures (buttons without JavaScript; drag and drop or keyboard with it).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useFetcher, useLoaderData, useNavigation, useSearchParams } from '@remix-run/react'
import { FlashMessage, useFlash } from '#app/components/flash.tsx'
import { SortableList } from '#app/components/sortable-list.tsx'
import { CoursePreviewLinks, LectureStateBadge } from '#app/courses/components/course-publish-state.tsx'
import { Alert, Button, Card, Field, PageTitle } from '#app/components/ui.tsx'
import { curriculumPath, TITLE_MAX } from '#app/domain/course-paths.ts'
import { requireCourse, SectionTitleSchema } from '#app/courses/lecture-form.server.ts'
import { formatLength } from '#app/domain/video-view.ts'
import { createSection, listCourseLectures, listSections } from '#app/models/course-content.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { getT } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { parseForm, type FieldErrors } from '#app/utils/validation.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { tenant, course } = await requireCourse(request, context, params)
  const [sections, lectures] = await Promise.all([listSections(context.db, tenant.id, course.id), listCourseLectures(context.db, tenant.id, course.id)])
  return {
    title: `${course.title} · ${getT(request, context)('courses.curriculum')} · ${tenant.name}`,
    course: { id: course.id, title: course.title, slug: course.slug, published: course.published, commentsEnabled: course.commentsEnabled },
    sections: sections.map((s) => ({
      id: s.id,
      title: s.title,
      lectures: lectures
        .filter((l) => l.sectionId === s.id)
        .map((l) => ({ id: l.id, title: l.title, kind: l.kind, published: l.published, freeToWatch: l.freeToWatch, runTimeSeconds: l.runTimeSeconds })),
    })),
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { tenant, course } = await requireCourse(request, context, params)
  const parsed = await parseForm(SectionTitleSchema, request)
  if (!parsed.ok) return formError(parsed.errors, parsed.values)
  await createSection(context.db, tenant.id, course.id, parsed.data.title)
  return redirectWithFlash(request, curriculumPath(course.id), { done: 'section_created', message: 'courses.done.section_created' })
}

type SectionData = ReturnType<typeof useLoaderData<typeof loader>>['sections'][number]

function MoveButtons({ action, id, label, first, last }: { action: string; id: string; label: string; first: boolean; last: boolean }) {
  const t = useT()
  return (
    <Form method="post" action={action} className="flex gap-1">
      <input type="hidden" name="id" value={id} />
      <Button type="submit" name="move" value="up" variant="secondary" className="px-2 py-1 text-xs" disabled={first} aria-label={t('courses.move_up_label', { name: label })}>
        {t('courses.move_up')}
      </Button>
      <Button type="submit" name="move" value="down" variant="secondary" className="px-2 py-1 text-xs" disabled={last} aria-label={t('courses.move_down_label', { name: label })}>
        {t('courses.move_down')}
      </Button>
    </Form>
  )
}

function SectionLectures({ courseId, slug, section }: { courseId: string; slug: string; section: SectionData }) {
  const t = useT()
  const fetcher = useFetcher()
  const base = `${curriculumPath(courseId)}/${section.id}/lectures`
  if (section.lectures.length === 0) return <p className="mt-2 text-sm text-slate-500">{t('courses.lectures.empty')}</p>
  return (
    <SortableList
      name={`lectures-${section.id}`}
      label={t('courses.lectures.list_label', { section: section.title })}
      items={section.lectures.map((l) => ({ id: l.id, label: l.title }))}
      onReorder={(ids) => fetcher.submit({ order: ids.join(',') }, { method: 'post', action: `${base}/order` })}
      className="mt-3 divide-y divide-slate-100 rounded-md border border-slate-200"
    >
      {(item, handle) => {
        const lecture = section.lectures.find((l) => l.id === item.id)!
        const index = section.lectures.indexOf(lecture)
        return (
          <div className="flex flex-wrap items-center gap-3 px-3 py-2" data-lecture={lecture.title}>
            {handle}
            <div className="min-w-40 flex-1 break-words">
              <Link to={`${base}/${lecture.id}`} className="font-medium text-brand-700 hover:underline">
                {lecture.title}
              </Link>
              <p className="text-xs text-slate-500">
                {t(`courses.lecture.kind.${lecture.kind}`)}
                {lecture.runTimeSeconds ? ` · ${formatLength(lecture.runTimeSeconds)}` : ''}
                {lecture.freeToWatch ? ` · ${t('courses.lecture.free_badge')}` : ''}
              </p>
            </div>
            <LectureStateBadge published={lecture.published} />
            <Link to={`/${slug}/watch/${lecture.id}`} className="text-sm font-semibold text-brand-700 hover:underline" aria-label={t('publishing.preview_lecture_label', { title: lecture.title })} data-preview-lecture={lecture.title}>
              {t('publishing.preview_as_student')}
            </Link>
            <MoveButtons action={`${base}/order`} id={lecture.id} label={lecture.title} first={index === 0} last={index === section.lectures.length - 1} />
          </div>
        )
      }}
    </SortableList>
  )
}

export default function CurriculumPage() {
  const { course, sections } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [params] = useSearchParams()
  const t = useT()
  const fetcher = useFetcher()
  const busy = useNavigation().state === 'submitting'
  const flash = useFlash()
  const problem = /^(courses|validation)\.[a-z0-9_.]+$/.test(params.get('problem') ?? '') ? params.get('problem') : null
  const errors = (actionData?.errors ?? {}) as FieldErrors
  const base = curriculumPath(course.id)

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap gap-4 text-sm">
        <Link to="/home/courses" className="font-medium text-brand-700 hover:underline">
          ← {t('courses.back_to_courses')}
        </Link>
        <Link to={`/home/products/${course.id}`} className="font-medium text-brand-700 hover:underline">
          {t('courses.edit_course')}
        </Link>
      </div>
      <PageTitle subtitle={course.published ? t('courses.published') : t('courses.draft')}>{t('courses.curriculum_of', { title: course.title })}</PageTitle>
      <FlashMessage hidden={Boolean(actionData)} />
      {/* A form posted without JavaScript to a POST-only route comes back with its message (resourceError). */}
      {problem && !actionData ? <Alert>{t(problem)}</Alert> : null}
      {!course.commentsEnabled ? <Alert tone="info">{t('courses.comments_off_course')}</Alert> : null}
      <CoursePreviewLinks course={course} hasPublished={sections.some((s) => s.lectures.some((l) => l.published))} />

      <Card>
        <h2 className="text-lg font-semibold">{t('courses.section.add')}</h2>
        <Form method="post" className="mt-3 flex flex-wrap items-start gap-3" noValidate key={flash?.done === 'section_created' ? 'created' : 'add'}>
          <Field className="min-w-64 flex-1" label={t('courses.section.field.title')} name="title" maxLength={TITLE_MAX} defaultValue={actionData?.values?.title} error={errors.title} />
          <Button type="submit" className="mt-6" disabled={busy}>
            {t('courses.section.add_button')}
          </Button>
        </Form>
      </Card>

      {sections.length === 0 ? (
        <p className="text-slate-600">{t('courses.sections.empty')}</p>
      ) : (
        <SortableList
          name="sections"
          label={t('courses.sections.list_label')}
          items={sections.map((s) => ({ id: s.id, label: s.title }))}
          onReorder={(ids) => fetcher.submit({ order: ids.join(',') }, { method: 'post', action: `${base}/order` })}
          className="space-y-4"
        >
          {(item, handle) => {
            const section = sections.find((s) => s.id === item.id)!
            const index = sections.indexOf(section)
            return (
              <Card className="p-4" data-section={section.title}>
                <div className="flex flex-wrap items-center gap-3">
                  {handle}
                  <h2 className="min-w-0 flex-1 text-lg font-semibold">{section.title}</h2>
                  <MoveButtons action={`${base}/order`} id={section.id} label={section.title} first={index === 0} last={index === sections.length - 1} />
                  <Link to={`${base}/${section.id}`} className="text-sm font-semibold text-brand-700 hover:underline" aria-label={t('courses.section.edit_label', { name: section.title })}>
                    {t('courses.section.edit')}
                  </Link>
                  <Link to={`${base}/${section.id}/lectures/create`} className="text-sm font-semibold text-brand-700 hover:underline" aria-label={t('courses.lecture.add_label', { name: section.title })}>
                    {t('courses.lecture.add')}
                  </Link>
                </div>
                <SectionLectures courseId={course.id} slug={course.slug} section={section} />
              </Card>
            )
          }}
        </SortableList>
      )}
    </div>
  )
}
