// The new-lecture page body, shared by .../lectures/create (the form) and .../lectures (where it
// posts, and which shows it again with the errors).
import { Link } from '@remix-run/react'
import type { VideoState } from '#app/domain/video-state.ts'
import { useT } from '#app/utils/i18n-react.ts'
import type { FieldErrors, FormValues } from '#app/utils/validation.ts'
import { LectureForm } from '#app/courses/components/course-lecture-form.tsx'
import { Card, PageTitle } from '#app/components/ui.tsx'

export type NewLectureData = {
  course: { id: string; title: string; commentsEnabled: boolean }
  section: { id: string; title: string }
  videos: Array<{ id: string; title: string; state: VideoState; lengthSeconds: number | null }>
}

export function NewLecturePage({ data, errors, values }: { data: NewLectureData; errors?: FieldErrors; values?: FormValues }) {
  const t = useT()
  const base = `/home/courses/${data.course.id}/sections`
  return (
    <div className="space-y-6">
      <Link to={base} className="text-sm font-medium text-brand-700 hover:underline">
        ← {t('courses.back_to_curriculum', { title: data.course.title })}
      </Link>
      <PageTitle subtitle={t('courses.lecture.in_section', { section: data.section.title })}>{t('courses.lecture.new')}</PageTitle>
      <Card>
        <LectureForm
          action={`${base}/${data.section.id}/lectures`}
          defaults={{ title: '', kind: 'video', description: '', body: '', videoId: null, sourceUrl: null, pdfKey: null, pdfName: null, runTimeSeconds: 0, freeToWatch: false, published: false, commentsEnabled: true }}
          values={values}
          errors={errors}
          videos={data.videos}
          courseCommentsEnabled={data.course.commentsEnabled}
          pdfEndpoint={`/home/courses/${data.course.id}/lecture-pdfs`}
          submitLabel={t('courses.lecture.create')}
        />
      </Card>
    </div>
  )
}
