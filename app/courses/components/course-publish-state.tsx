// The course builder's publishing parts (issue 23 item 3): a lecture's Published/Draft badge and
// the links to preview the course as a student and to open its public page.
import { Link } from '@remix-run/react'
import { Alert, Card } from '#app/components/ui.tsx'
import { useT } from '#app/utils/i18n-react.ts'

/** Published or draft at a glance (issue 23 item 3). */
export function LectureStateBadge({ published }: { published: boolean }) {
  const t = useT()
  return (
    <span className={`shrink-0 rounded px-2 py-0.5 text-xs font-semibold ${published ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-200 text-slate-800'}`} data-lecture-state={published ? 'published' : 'draft'}>
      {published ? t('courses.published') : t('courses.draft')}
    </span>
  )
}

/** Preview as student (drafts included, marked) and the public page on the school's own origin. */
export function CoursePreviewLinks({ course, hasPublished }: { course: { slug: string; published: boolean }; hasPublished: boolean }) {
  const t = useT()
  return (
    <Card className="space-y-2" data-course-previews>
      <div className="flex flex-wrap items-center gap-x-6 gap-y-2 text-sm">
        <Link to={`/${course.slug}/watch`} className="font-semibold text-brand-700 hover:underline" data-preview-course>
          {t('publishing.preview_as_student')}
        </Link>
        {course.published ? (
          <Link to={`/${course.slug}`} className="font-semibold text-brand-700 hover:underline" data-public-page>
            {t('publishing.view_public_page')}
          </Link>
        ) : (
          <span className="text-slate-600">{t('publishing.public_page_after_publish')}</span>
        )}
      </div>
      <p className="text-xs text-slate-600">{t('publishing.preview_hint')}</p>
      {course.published && !hasPublished ? <Alert tone="info">{t('publishing.note.live_without_lectures')}</Alert> : null}
    </Card>
  )
}
