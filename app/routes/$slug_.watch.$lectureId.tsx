import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { CourseCertificateCard } from '#app/certificates/components/certificate-offers.tsx'
import { Link, useActionData, useLoaderData, useLocation } from '@remix-run/react'
import { useState } from 'react'
import { CommentsBox } from '#app/comments/components/comments-box.tsx'
import { CourseReviewForm } from '#app/engagement/components/course-review-form.tsx'
import { PlayerControls } from '#app/player/components/player-controls.tsx'
import { LockIcon, PlayerNav, PlayerProgress } from '#app/player/components/player-nav.tsx'
import { PlayerNoAccess } from '#app/player/components/player-no-access.tsx'
import { PlayerVideo } from '#app/player/components/player-video.tsx'
import { Quiz } from '#app/player/components/quiz.tsx'
import { StorefrontMarkdown } from '#app/storefront/components/storefront-markdown.tsx'
import { Alert } from '#app/components/ui.tsx'
import { loadWatchPage } from '#app/player/watch-page.server.ts'
import { ExamPlayer } from '#app/exams/components/exam-player.tsx'
import { examAction } from '#app/exams/player.server.ts'
import { useT } from '#app/utils/i18n-react.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [{ title: data.title }, { name: 'robots', content: 'noindex' }] : [])

export const headers: HeadersFunction = ({ loaderHeaders }) => ({ 'Cache-Control': loaderHeaders.get('Cache-Control') ?? 'private, no-store' })

/** The lecture player (issue 7 item 2); the no-access page (403) when the viewer may not watch. */
export const loader = ({ request, context, params }: LoaderFunctionArgs) => loadWatchPage(request, context, params.slug ?? '', params.lectureId ?? '')

/** An exam lecture's "Start attempt" and "Submit" (issue 24 item 1): plain form posts, graded on the server. */
export const action = ({ request, context, params }: ActionFunctionArgs) => examAction(request, context, params.slug ?? '', params.lectureId ?? '')

type Data = ReturnType<typeof useLoaderData<typeof loader>>

export default function WatchLecture() {
  const data = useLoaderData<typeof loader>()
  if (data.mode === 'no_access') {
    return <PlayerNoAccess slug={data.course.slug} offer={data.offer} courseTitle={data.course.title} lectureTitle={data.lecture.title} loginHref={data.loginHref} sections={data.sections} />
  }
  // A fresh player state per lecture (client navigation reuses the route component).
  return <Player key={data.lecture.id} data={data} />
}

function Player({ data }: { data: Exclude<Data, { mode: 'no_access' }> }) {
  const t = useT()
  const location = useLocation()
  const [completed, setCompleted] = useState(() => new Set(data.completedIds))
  const done = data.publishedIds.filter((id) => completed.has(id)).length
  const notesFlash = new URLSearchParams(location.search).get('notes')
  const nav = <PlayerNav slug={data.course.slug} sections={data.sections} currentId={data.lecture.id} completed={completed} />
  return (
    <div className="grid gap-6 lg:grid-cols-[18rem_minmax(0,1fr)] lg:items-start" data-player={data.lecture.id} data-player-mode={data.mode}>
      <aside className="space-y-4 lg:sticky lg:top-4 lg:max-h-[calc(100vh-2rem)] lg:overflow-y-auto">
        <div className="space-y-3 rounded-xl border border-slate-200 bg-white p-4">
          <Link to={`/${data.course.slug}`} className="block break-words font-semibold text-slate-900 hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-500">
            {data.course.title}
          </Link>
          <PlayerProgress done={done} total={data.publishedIds.length} />
        </div>
        <details className="rounded-xl border border-slate-200 bg-white p-4 lg:hidden">
          <summary className="cursor-pointer font-medium text-slate-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-500">{t('player.nav.toggle')}</summary>
          <div className="mt-4">{nav}</div>
        </details>
        <div className="hidden rounded-xl border border-slate-200 bg-white p-4 lg:block">{nav}</div>
      </aside>
      <article className="min-w-0 space-y-6" aria-labelledby="lecture-title">
        <header className="space-y-2">
          <h1 id="lecture-title" className="break-words text-2xl font-extrabold tracking-tight text-slate-900 sm:text-3xl">
            {data.lecture.title}
            {data.mode === 'open' && data.preview ? <span className="ml-2 rounded bg-amber-100 px-2 py-0.5 align-middle text-sm font-medium text-amber-900" data-draft-badge>{t('player.badge.draft')}</span> : null}
          </h1>
        </header>
        {data.mode === 'locked' ? (
          <div className="rounded-xl border border-slate-200 bg-white p-6 text-center" data-lecture-locked>
            <LockIcon className="mx-auto size-10 text-slate-400" />
            <h2 className="mt-2 text-lg font-semibold text-slate-900">{t('player.locked.title')}</h2>
            <p className="mt-1 text-slate-700" data-available-on>
              {t('player.available_on', { date: data.availableOn })}
            </p>
          </div>
        ) : (
          <LectureContent data={data} onCompleted={(value) => setCompleted((prev) => {
            const next = new Set(prev)
            if (value) next.add(data.lecture.id)
            else next.delete(data.lecture.id)
            return next
          })} notesFlash={notesFlash === 'saved' || notesFlash === 'too_long' ? notesFlash : null} />
        )}
        {data.mode === 'locked' ? (
          <PlayerControls lectureId={data.lecture.id} slug={data.course.slug} initial={{ note: '', starred: false, completed: false }} canSave={false} noteMax={0} notesFlash={null} previous={data.previous} next={data.next} onCompleted={() => {}} />
        ) : null}
      </article>
    </div>
  )
}

function LectureContent({ data, onCompleted, notesFlash }: { data: Extract<Data, { mode: 'open' }>; onCompleted: (value: boolean) => void; notesFlash: 'saved' | 'too_long' | null }) {
  const t = useT()
  const actionData = useActionData<typeof action>()
  const examError = actionData && 'examError' in actionData ? actionData.examError : null
  const { video } = data
  return (
    <>
      {video.kind === 'bunny' ? (
        video.url ? (
          <PlayerVideo lectureId={data.lecture.id} title={data.lecture.title} url={video.url} canSave={data.canSave} watchedSeconds={data.progress.watchedSeconds} />
        ) : (
          <Alert tone="info">{video.processing ? t('player.video.processing') : t('player.video.unavailable')}</Alert>
        )
      ) : video.kind === 'external' ? (
        <PlayerVideo lectureId={data.lecture.id} title={data.lecture.title} url={video.url} canSave={data.canSave} watchedSeconds={data.progress.watchedSeconds} />
      ) : data.lecture.kind === 'video' ? (
        <Alert tone="info">{t('player.video.unavailable')}</Alert>
      ) : null}
      {data.pdfHref ? (
        <div className="flex flex-wrap gap-3 rounded-xl border border-slate-200 bg-white p-5" data-lecture-pdf>
          <a href={data.pdfHref} target="_blank" rel="noopener" className="inline-flex min-h-11 items-center rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600">
            {t('player.pdf.open')}
          </a>
          <a href={`${data.pdfHref}?mode=download`} className="inline-flex min-h-11 items-center rounded-lg border border-slate-300 px-4 py-2 font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-500">
            {t('player.pdf.download')}
          </a>
        </div>
      ) : null}
      {data.description ? <p className="whitespace-pre-line text-slate-700">{data.description}</p> : null}
      {data.html ? <StorefrontMarkdown html={data.html} data-lecture-body /> : null}
      {data.exam ? <ExamPlayer exam={data.exam} error={examError} loginHref={data.loginHref} /> : null}
      {data.components.map((c) =>
        c.kind === 'text' ? (
          <StorefrontMarkdown key={c.id} html={c.html} data-lecture-component="text" />
        ) : c.kind === 'file' ? (
          <p key={c.id} data-lecture-component="file">
            <a href={`${c.href}&mode=download`} className="inline-flex min-h-11 items-center gap-2 rounded-lg border border-slate-300 bg-white px-4 py-2 font-medium text-brand-700 hover:bg-slate-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-500">
              ⬇ {t('player.file.download', { name: c.filename })}
            </a>
          </p>
        ) : (
          <Quiz key={c.id} id={c.id} questionHtml={c.questionHtml} answers={c.answers} hintHtml={c.hintHtml} />
        ),
      )}
      <PlayerControls
        lectureId={data.lecture.id}
        slug={data.course.slug}
        initial={data.progress}
        canSave={data.canSave}
        noteMax={data.noteMax}
        notesFlash={notesFlash}
        previous={data.previous}
        next={data.next}
        onCompleted={onCompleted}
        completable={data.lecture.kind !== 'exam'}
      />
      <CourseCertificateCard offer={data.certificate} />
      {data.review ? <CourseReviewForm slug={data.course.slug} review={data.review.review} /> : null}
      {data.communityTopic ? (
        <p className="rounded-lg border border-slate-200 bg-white p-4 text-sm" data-course-topic>
          {t('community.player.discuss')}{' '}
          <Link to={`/community/topics/${data.communityTopic.id}`} className="font-semibold text-brand-700 underline">
            {data.communityTopic.title}
          </Link>
        </p>
      ) : null}
      {data.comments ? <CommentsBox data={data.comments} /> : null}
    </>
  )
}
