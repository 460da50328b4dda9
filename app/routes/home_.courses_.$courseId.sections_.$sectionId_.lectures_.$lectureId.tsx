// /home/courses/:courseId/sections/:sectionId/lectures/:lectureId — edit a lecture (and move it to
// another section), delete it (type DELETE), and manage its components.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useFetcher, useLoaderData, useSearchParams } from '@remix-run/react'
import { z } from 'zod'
import { ComponentForm } from '#app/courses/components/course-component-form.tsx'
import { CourseDeleteForm } from '#app/courses/components/course-delete-form.tsx'
import { LectureForm } from '#app/courses/components/course-lecture-form.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { SortableList } from '#app/components/sortable-list.tsx'
import { Alert, Button, Card, PageTitle } from '#app/components/ui.tsx'
import { curriculumPath, lecturePath } from '#app/domain/course-paths.ts'
import { echoLecture, LectureSchema, requireLecture, videoChoices } from '#app/courses/lecture-form.server.ts'
import { deleteLecture, getLecturePdf, listComponents, listSections, moveLectureToSection, updateLecture } from '#app/models/course-content.server.ts'
import { countPublishedLectures } from '#app/models/lecture-status.server.ts'
import { ensureExamForLecture, getExamOfLecture } from '#app/models/exam.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { renderMarkdown } from '#app/utils/markdown.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { getT, notFound } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { type FieldErrors, msg, parseWith, readFormFields } from '#app/utils/validation.ts'

const DeleteSchema = z.object({ confirm: z.string().refine((s) => s.trim() === 'DELETE', { message: msg('courses.delete.confirm_mismatch') }) })

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { tenant, course, section, lecture } = await requireLecture(request, context, params)
  const [sections, components, videos, pdf, publishedLectures, exam] = await Promise.all([
    listSections(context.db, tenant.id, course.id),
    listComponents(context.db, tenant.id, course.id, section.id, lecture.id),
    videoChoices(context, tenant.id),
    lecture.pdfKey ? getLecturePdf(context.db, tenant.id, lecture.pdfKey) : undefined,
    countPublishedLectures(context.db, tenant.id, course.id),
    lecture.kind === 'exam' ? getExamOfLecture(context.db, tenant.id, lecture.id) : undefined,
  ])
  return {
    title: `${lecture.title} · ${course.title} · ${getT(request, context)('courses.curriculum')}`,
    course: { id: course.id, title: course.title, slug: course.slug, commentsEnabled: course.commentsEnabled },
    // Our choice (issue 23 item 3): unpublishing the last lecture of a published course is allowed, with a warning.
    liveWithoutLectures: course.published && publishedLectures === 0,
    section: { id: section.id, title: section.title },
    sections: sections.map((s) => ({ id: s.id, title: s.title })),
    lecture: { ...lecture, pdfName: pdf?.originalFilename ?? null },
    bodyHtml: lecture.kind === 'text' ? renderMarkdown(lecture.body) : '',
    components: components.map((c) => ({ ...c, html: c.data.kind === 'text' ? renderMarkdown(c.data.body) : c.data.kind === 'quiz' ? renderMarkdown(c.data.question) : '' })),
    videos,
    examId: exam?.id ?? null,
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { tenant, course, section, lecture } = await requireLecture(request, context, params)
  const form = await readFormFields(request)
  if (!form) return formError({ form: { key: 'validation.invalid' } })
  if (form.intent === 'delete') {
    const parsed = parseWith(DeleteSchema, form)
    if (!parsed.ok) return formError(parsed.errors, { intent: 'delete' })
    await deleteLecture(context.db, tenant.id, course.id, section.id, lecture.id)
    return redirectWithFlash(request, curriculumPath(course.id), { done: 'deleted', message: 'courses.done.deleted' })
  }
  const parsed = parseWith(LectureSchema, form)
  if (!parsed.ok) return formError(parsed.errors, { ...parsed.values, intent: 'update' })
  const { sectionId: targetSectionId, ...input } = parsed.data
  const sections = await listSections(context.db, tenant.id, course.id)
  if (targetSectionId && !sections.some((s) => s.id === targetSectionId)) return formError({ sectionId: { key: 'validation.in' } }, { ...echoLecture(parsed.data), intent: 'update' })
  const result = await updateLecture(context.db, tenant.id, course.id, section.id, lecture.id, input)
  if (!result) notFound()
  if (!result.ok) return formError({ [result.field]: { key: result.key } }, { ...echoLecture(parsed.data), intent: 'update' })
  // A lecture turned into an exam gets its settings row (an exam turned back keeps its row and attempts).
  if (input.kind === 'exam') await ensureExamForLecture(context.db, tenant.id, result.lecture)
  let sectionId = section.id
  if (targetSectionId && targetSectionId !== section.id && (await moveLectureToSection(context.db, tenant.id, course.id, lecture.id, targetSectionId))) sectionId = targetSectionId
  const emptied = course.published && lecture.published && !input.published && (await countPublishedLectures(context.db, tenant.id, course.id)) === 0
  return redirectWithFlash(request, lecturePath(course.id, sectionId, lecture.id), emptied ? { done: 'saved', message: 'publishing.done.saved_last_unpublished', tone: 'info' } : { done: 'saved', message: 'courses.done.saved' })
}

export default function LecturePage() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [params] = useSearchParams()
  const t = useT()
  const fetcher = useFetcher()
  const { course, section, lecture } = data
  const problem = /^(courses|validation)\.[a-z0-9_.]+$/.test(params.get('problem') ?? '') ? params.get('problem') : null
  const values = actionData?.values ?? {}
  const errors = (actionData?.errors ?? {}) as FieldErrors
  const self = lecturePath(course.id, section.id, lecture.id)
  const pdfEndpoint = `/home/courses/${course.id}/lecture-pdfs`

  return (
    <div className="space-y-6">
      <Link to={curriculumPath(course.id)} className="text-sm font-medium text-brand-700 hover:underline">
        ← {t('courses.back_to_curriculum', { title: course.title })}
      </Link>
      <PageTitle subtitle={t('courses.lecture.in_section', { section: section.title })}>{lecture.title}</PageTitle>
      <p className="text-sm">
        <Link to={`/${course.slug}/watch/${lecture.id}`} className="font-semibold text-brand-700 hover:underline" data-preview-lecture>
          {t('publishing.preview_as_student')}
        </Link>
      </p>
      <FlashMessage hidden={Boolean(actionData)} />
      {data.liveWithoutLectures ? <Alert tone="info">{t('publishing.note.live_without_lectures')}</Alert> : null}
      {/* A form posted without JavaScript to a POST-only route comes back with its message (resourceError). */}
      {problem && !actionData ? <Alert>{t(problem)}</Alert> : null}
      {!course.commentsEnabled ? <Alert tone="info">{t('courses.comments_off_course')}</Alert> : null}
      {data.examId ? (
        <Card className="space-y-2" data-exam-link>
          <h2 className="text-lg font-semibold">{t('courses.lecture.exam_title')}</h2>
          <p className="text-sm text-slate-700">{t('courses.lecture.exam_hint')}</p>
          <Link to={`/home/exams/${data.examId}`} className="font-semibold text-brand-700 hover:underline">
            {t('courses.lecture.exam_edit')}
          </Link>
        </Card>
      ) : null}

      <Card>
        <LectureForm
          key={lecture.updatedAt}
          action={self}
          intent="update"
          defaults={{ ...lecture, sectionId: section.id }}
          values={values.intent === 'update' ? values : undefined}
          errors={values.intent === 'update' ? errors : {}}
          videos={data.videos}
          courseCommentsEnabled={course.commentsEnabled}
          pdfEndpoint={pdfEndpoint}
          sections={data.sections}
          submitLabel={t('courses.save')}
        />
        {data.bodyHtml ? (
          <div className="mt-6">
            <h3 className="text-sm font-semibold text-slate-700">{t('courses.preview')}</h3>
            {/* renderMarkdown sanitizes its output. */}
            <div className="prose mt-2 max-w-none rounded-md border border-slate-200 bg-slate-50 p-4 text-sm" data-lecture-preview dangerouslySetInnerHTML={{ __html: data.bodyHtml }} />
          </div>
        ) : null}
      </Card>

      {/* An exam lecture shows its exam, not components, in the player (issue 24 item 1). */}
      {lecture.kind === 'exam' ? null : (
      <Card id="components" className="space-y-4">
        <h2 className="text-lg font-semibold">{t('courses.components.title')}</h2>
        {data.components.length === 0 ? <p className="text-sm text-slate-500">{t('courses.components.empty')}</p> : null}
        <SortableList
          name="components"
          label={t('courses.components.title')}
          items={data.components.map((c) => ({ id: c.id, label: `${t(`courses.component.kind.${c.data.kind}`)} ${c.position + 1}` }))}
          onReorder={(ids) => fetcher.submit({ order: ids.join(',') }, { method: 'post', action: `${self}/components/order` })}
          className="space-y-3"
        >
          {(item, handle) => {
            const c = data.components.find((x) => x.id === item.id)!
            const index = data.components.indexOf(c)
            const action = `${self}/components/${c.id}`
            return (
              <div className="rounded-md border border-slate-200 p-3" data-component={c.data.kind}>
                <div className="flex flex-wrap items-center gap-2">
                  {handle}
                  <span className="flex-1 text-sm font-semibold">{item.label}</span>
                  <Form method="post" action={`${self}/components/order`} className="flex gap-1">
                    <input type="hidden" name="id" value={c.id} />
                    <Button type="submit" name="move" value="up" variant="secondary" className="px-2 py-1 text-xs" disabled={index === 0} aria-label={t('courses.move_up_label', { name: item.label })}>
                      {t('courses.move_up')}
                    </Button>
                    <Button type="submit" name="move" value="down" variant="secondary" className="px-2 py-1 text-xs" disabled={index === data.components.length - 1} aria-label={t('courses.move_down_label', { name: item.label })}>
                      {t('courses.move_down')}
                    </Button>
                  </Form>
                  <Form method="post" action={action}>
                    <input type="hidden" name="intent" value="delete" />
                    <Button type="submit" variant="danger" className="px-2 py-1 text-xs" aria-label={t('courses.component.delete_label', { name: item.label })}>
                      {t('courses.component.delete')}
                    </Button>
                  </Form>
                </div>
                {c.data.kind === 'file' ? <p className="mt-2 text-sm">{c.data.filename}</p> : null}
                {c.html ? <div className="prose mt-2 max-w-none text-sm" dangerouslySetInnerHTML={{ __html: c.html }} /> : null}
                {c.data.kind === 'quiz' ? (
                  <ul className="mt-1 list-disc pl-6 text-sm">
                    {c.data.answers.map((a, i) => (
                      <li key={i}>
                        {a.text} {a.correct ? `(${t('courses.component.field.correct')})` : ''}
                      </li>
                    ))}
                  </ul>
                ) : null}
                <details className="mt-2">
                  <summary className="cursor-pointer text-sm font-semibold text-brand-700">{t('courses.component.edit')}</summary>
                  <div className="mt-2">
                    <ComponentForm action={action} kind={c.data.kind} initial={c.data} pdfEndpoint={pdfEndpoint} submitLabel={t('courses.save')} />
                  </div>
                </details>
              </div>
            )
          }}
        </SortableList>
        <div className="grid gap-4 md:grid-cols-3">
          {(['text', 'file', 'quiz'] as const).map((kind) => (
            <div key={kind} className="rounded-md border border-dashed border-slate-300 p-3">
              <h3 className="mb-2 text-sm font-semibold">{t(`courses.component.add.${kind}`)}</h3>
              <ComponentForm action={`${self}/components`} kind={kind} pdfEndpoint={pdfEndpoint} submitLabel={t('courses.component.add_button')} />
            </div>
          ))}
        </div>
      </Card>
      )}

      <CourseDeleteForm title={t('courses.lecture.delete')} warning={t('courses.lecture.delete_warning')} error={values.intent === 'delete' ? errors.confirm : undefined} />
    </div>
  )
}
