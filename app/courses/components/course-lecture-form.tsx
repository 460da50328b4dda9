// The lecture form (create and edit): title, kind (video, PDF or text) with the kind's content,
// run time, free-to-watch, published, comments. Without JavaScript every kind's fields show; with
// it only the chosen kind's. Video and PDF uploads need JavaScript (they go straight to storage).
import { Form, useNavigation } from '@remix-run/react'
import { useEffect, useState } from 'react'
import type { VideoState } from '#app/domain/video-state.ts'
import { formatLength } from '#app/domain/video-view.ts'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import type { FieldErrors, FormValues } from '#app/utils/validation.ts'
import { FileUpload } from '#app/media/components/file-upload.tsx'
import { Alert, Button, Field, SelectField, TextAreaField } from '#app/components/ui.tsx'
import { VideoStateBadge } from '#app/media/components/video-state.tsx'
import { VideoUpload } from '#app/media/components/video-upload.tsx'

export type LectureDefaults = {
  title: string
  kind: 'video' | 'pdf' | 'text' | 'exam'
  description: string
  body: string
  videoId: string | null
  sourceUrl: string | null
  pdfKey: string | null
  pdfName: string | null
  runTimeSeconds: number
  freeToWatch: boolean
  published: boolean
  commentsEnabled: boolean
  /** Drip (issue 7): days after enrolment and/or a date (ms); absent or null = none. */
  dripDays?: number | null
  dripAt?: number | null
  sectionId?: string
}

type Props = {
  action: string
  intent?: string
  defaults: LectureDefaults
  values?: FormValues
  errors?: FieldErrors
  videos: Array<{ id: string; title: string; state: VideoState; lengthSeconds: number | null }>
  /** The course's own switch: off disables comments on every lecture (seed 001 §4). */
  courseCommentsEnabled: boolean
  pdfEndpoint: string
  sections?: Array<{ id: string; title: string }>
  submitLabel: string
}

const runTimeText = (seconds: number) => (seconds ? formatLength(seconds) : '')

export function LectureForm({ action, intent, defaults, values, errors = {}, videos, courseCommentsEnabled, pdfEndpoint, sections, submitLabel }: Props) {
  const t = useT()
  const message = useFieldMessage()
  const busy = useNavigation().state === 'submitting'
  const [hydrated, setHydrated] = useState(false)
  const v = (name: string, fallback: string) => values?.[name] ?? fallback
  const [kind, setKind] = useState(v('kind', defaults.kind))
  const [videoList, setVideoList] = useState(videos)
  const [videoId, setVideoId] = useState(v('videoId', defaults.videoId ?? ''))
  const [pdf, setPdf] = useState<{ key: string; name: string } | null>(() => {
    const key = v('pdfKey', defaults.pdfKey ?? '')
    return key ? { key, name: defaults.pdfKey === key ? (defaults.pdfName ?? key) : key } : null
  })
  useEffect(() => setHydrated(true), [])
  useEffect(() => setVideoList(videos), [videos])
  const show = (k: string) => !hydrated || kind === k
  const checked = (name: string, fallback: boolean) => (values ? values[name] === 'on' : fallback)
  const selected = videoList.find((x) => x.id === videoId)

  return (
    <Form method="post" action={action} className="space-y-4" noValidate data-lecture-form>
      {intent ? <input type="hidden" name="intent" value={intent} /> : null}
      <Field label={t('courses.lecture.field.title')} name="title" defaultValue={v('title', defaults.title)} maxLength={120} required error={errors.title} />
      <SelectField
        label={t('courses.lecture.field.kind')}
        name="kind"
        value={kind}
        onChange={(e) => setKind(e.currentTarget.value as typeof kind)}
        options={(['video', 'pdf', 'text', 'exam'] as const).map((k) => ({ value: k, label: t(`courses.lecture.kind.${k}`) }))}
        error={errors.kind}
      />
      {sections && sections.length > 1 ? (
        <SelectField label={t('courses.lecture.field.section')} name="sectionId" defaultValue={v('sectionId', defaults.sectionId ?? '')} options={sections.map((s) => ({ value: s.id, label: s.title }))} />
      ) : null}

      {show('video') ? (
        <fieldset className="space-y-3 rounded-md border border-slate-200 p-4" data-kind-fields="video">
          <legend className="px-1 text-sm font-semibold">{t('courses.lecture.kind.video')}</legend>
          <SelectField
            label={t('courses.lecture.field.video')}
            name="videoId"
            value={videoId}
            onChange={(e) => setVideoId(e.currentTarget.value)}
            options={[{ value: '', label: t('courses.lecture.video.none') }, ...videoList.map((x) => ({ value: x.id, label: x.title }))]}
            error={errors.videoId}
          />
          {selected ? (
            <p className="text-sm text-slate-600" data-selected-video={selected.title}>
              <VideoStateBadge state={selected.state} /> {selected.lengthSeconds ? formatLength(selected.lengthSeconds) : null}
            </p>
          ) : null}
          <VideoUpload
            label={t('courses.lecture.video.upload')}
            onUploaded={(result) => {
              const title = result.video?.title ?? result.videoId
              setVideoList((list) => [{ id: result.videoId, title, state: result.video?.state ?? 'uploading', lengthSeconds: null }, ...list.filter((x) => x.id !== result.videoId)])
              setVideoId(result.videoId)
            }}
          />
          <Field
            label={t('courses.lecture.field.source_url')}
            name="sourceUrl"
            type="url"
            defaultValue={v('sourceUrl', defaults.sourceUrl ?? '')}
            maxLength={2000}
            hint={t('courses.lecture.source_hint')}
            error={errors.sourceUrl}
          />
        </fieldset>
      ) : null}

      {show('pdf') ? (
        <fieldset className="space-y-3 rounded-md border border-slate-200 p-4" data-kind-fields="pdf">
          <legend className="px-1 text-sm font-semibold">{t('courses.lecture.kind.pdf')}</legend>
          <input type="hidden" name="pdfKey" value={pdf?.key ?? ''} />
          {pdf ? (
            <p className="text-sm" data-lecture-pdf={pdf.name}>
              {t('courses.lecture.pdf.current', { name: pdf.name })}
            </p>
          ) : null}
          <FileUpload<{ file: { key: string; filename: string } }>
            endpoint={pdfEndpoint}
            context="lecture_pdf"
            name="lecture-pdf"
            label={t('courses.lecture.pdf.upload')}
            onUploaded={(result) => setPdf({ key: result.file.key, name: result.file.filename })}
          />
          {errors.pdfKey ? (
            <p className="text-sm text-red-600" data-field-error="pdfKey">
              {message(errors.pdfKey)}
            </p>
          ) : null}
        </fieldset>
      ) : null}

      {show('text') ? (
        <fieldset className="rounded-md border border-slate-200 p-4" data-kind-fields="text">
          <legend className="px-1 text-sm font-semibold">{t('courses.lecture.kind.text')}</legend>
          <TextAreaField label={t('courses.lecture.field.body')} name="body" defaultValue={v('body', defaults.body)} rows={10} hint={t('courses.markdown_hint')} error={errors.body} />
        </fieldset>
      ) : null}

      {show('exam') ? (
        <p className="rounded-md border border-slate-200 p-4 text-sm text-slate-700" data-kind-fields="exam">
          {t('courses.lecture.exam_hint')}
        </p>
      ) : null}

      <TextAreaField label={t('courses.lecture.field.description')} name="description" defaultValue={v('description', defaults.description)} rows={3} error={errors.description} />
      <Field
        label={t('courses.lecture.field.run_time')}
        name="runTime"
        inputMode="numeric"
        placeholder="12:30"
        defaultValue={v('runTime', runTimeText(defaults.runTimeSeconds))}
        hint={t('courses.lecture.run_time_hint')}
        error={errors.runTime}
        className="max-w-xs"
      />
      <PublishedSwitch initial={checked('published', defaults.published)} />
      <div className="space-y-2 text-sm">
        <label className="flex items-center gap-2">
          <input type="checkbox" name="freeToWatch" defaultChecked={checked('freeToWatch', defaults.freeToWatch)} />
          {t('courses.lecture.field.free')}
        </label>
        <label className="flex items-center gap-2">
          <input type="checkbox" name="commentsEnabled" defaultChecked={checked('commentsEnabled', defaults.commentsEnabled)} />
          {t('courses.lecture.field.comments')}
        </label>
        {!courseCommentsEnabled ? <Alert tone="info">{t('courses.comments_off_course')}</Alert> : null}
      </div>
      <fieldset className="space-y-3 rounded-lg border border-slate-200 p-4" data-drip-fields>
        <legend className="px-1 text-sm font-semibold text-slate-800">{t('courses.lecture.drip.legend')}</legend>
        <p className="text-sm text-slate-600">{t('courses.lecture.drip.hint')}</p>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field
            label={t('courses.lecture.field.drip_days')}
            name="dripDays"
            type="number"
            min={0}
            max={3650}
            inputMode="numeric"
            defaultValue={v('dripDays', defaults.dripDays ? String(defaults.dripDays) : '')}
            error={errors.dripDays}
          />
          <Field
            label={t('courses.lecture.field.drip_at')}
            name="dripAt"
            type="date"
            defaultValue={v('dripAt', defaults.dripAt ? new Date(defaults.dripAt).toISOString().slice(0, 10) : '')}
            hint={t('courses.lecture.drip.date_hint')}
            error={errors.dripAt}
          />
        </div>
      </fieldset>
      <Button type="submit" disabled={busy}>
        {submitLabel}
      </Button>
    </Form>
  )
}

/**
 * Published or draft (issue 23 item 3): a switch with a badge that names the state and a line on
 * who can see the lecture. A plain checkbox underneath, so the form works without JavaScript.
 */
function PublishedSwitch({ initial }: { initial: boolean }) {
  const t = useT()
  const [on, setOn] = useState(initial)
  return (
    <fieldset className={`rounded-md border p-4 ${on ? 'border-emerald-300 bg-emerald-50' : 'border-slate-300 bg-slate-50'}`} data-publish-switch={on ? 'published' : 'draft'}>
      <legend className="px-1 text-sm font-semibold">{t('publishing.lecture.state_label')}</legend>
      <div className="flex flex-wrap items-center gap-3">
        <label className="flex cursor-pointer items-center gap-3 text-sm font-medium">
          {/* The checkbox itself drawn as a switch (CSS only), so it reads and works without JavaScript. */}
          <input
            type="checkbox"
            role="switch"
            name="published"
            className="relative h-6 w-11 shrink-0 cursor-pointer appearance-none rounded-full bg-slate-400 transition before:absolute before:left-0.5 before:top-0.5 before:size-5 before:rounded-full before:bg-white before:shadow before:transition checked:bg-emerald-600 checked:before:translate-x-5 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
            defaultChecked={initial}
            aria-describedby="lecture-published-hint"
            onChange={(e) => setOn(e.currentTarget.checked)}
          />
          {t('courses.lecture.field.published')}
        </label>
        <span className={`rounded px-2 py-0.5 text-xs font-semibold ${on ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-200 text-slate-800'}`} data-publish-state={on ? 'published' : 'draft'}>
          {on ? t('courses.published') : t('courses.draft')}
        </span>
      </div>
      <p id="lecture-published-hint" className="mt-2 text-sm text-slate-700" aria-live="polite">
        {on ? t('publishing.lecture.published_hint') : t('publishing.lecture.draft_hint')}
      </p>
    </fieldset>
  )
}
