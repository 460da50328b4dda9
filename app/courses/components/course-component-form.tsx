// Forms of lecture components (text, file, quiz). They post to the component routes; with
// JavaScript through a fetcher, so a mistake shows next to the field without leaving the page.
import { useFetcher } from '@remix-run/react'
import { useState } from 'react'
import type { ComponentData } from '#app/models/course-content.server.ts'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import type { FieldErrors } from '#app/utils/validation.ts'
import { FileUpload } from '#app/media/components/file-upload.tsx'
import { Button, Field } from '#app/components/ui.tsx'

const SLOTS = 4

function Error({ errors, name }: { errors: FieldErrors; name: string }) {
  const message = useFieldMessage()(errors[name])
  return message ? (
    <p className="text-sm text-red-600" data-field-error={name}>
      {message}
    </p>
  ) : null
}

function Area({ label, name, defaultValue, rows = 4 }: { label: string; name: string; defaultValue?: string; rows?: number }) {
  return (
    <label className="block space-y-1 text-sm">
      <span className="block font-medium text-slate-700">{label}</span>
      <textarea name={name} rows={rows} defaultValue={defaultValue} className="block w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-sm" />
    </label>
  )
}

type Props = { action: string; kind: ComponentData['kind']; initial?: ComponentData; pdfEndpoint: string; submitLabel: string }

export function ComponentForm({ action, kind, initial, pdfEndpoint, submitLabel }: Props) {
  const t = useT()
  const fetcher = useFetcher<{ errors?: FieldErrors }>()
  const errors = fetcher.data?.errors ?? {}
  const [file, setFile] = useState(initial?.kind === 'file' ? { key: initial.key, filename: initial.filename } : null)
  const quiz = initial?.kind === 'quiz' ? initial : null
  return (
    <fetcher.Form method="post" action={action} className="space-y-3" noValidate data-component-form={kind}>
      <input type="hidden" name="intent" value={initial ? 'update' : 'create'} />
      <input type="hidden" name="kind" value={kind} />
      {kind === 'text' ? (
        <>
          <Area label={t('courses.component.field.body')} name="body" defaultValue={initial?.kind === 'text' ? initial.body : ''} rows={5} />
          <Error errors={errors} name="body" />
        </>
      ) : null}
      {kind === 'file' ? (
        <>
          <input type="hidden" name="fileKey" value={file?.key ?? ''} />
          <input type="hidden" name="filename" value={file?.filename ?? ''} />
          {file ? <p className="text-sm">{t('courses.lecture.pdf.current', { name: file.filename })}</p> : null}
          <FileUpload<{ file: { key: string; filename: string } }>
            endpoint={pdfEndpoint}
            context="lecture_pdf"
            name={initial ? `component-file-${action}` : 'component-file'}
            label={t('courses.component.file_upload')}
            onUploaded={(result) => setFile({ key: result.file.key, filename: result.file.filename })}
          />
          <Error errors={errors} name="fileKey" />
        </>
      ) : null}
      {kind === 'quiz' ? (
        <>
          <Area label={t('courses.component.field.question')} name="question" defaultValue={quiz?.question} rows={3} />
          <Error errors={errors} name="question" />
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-700">{t('courses.component.field.answers')}</legend>
            {Array.from({ length: SLOTS }, (_, i) => (
              <div key={i} className="flex items-end gap-3">
                <Field className="flex-1" label={t('courses.component.field.answer', { number: i + 1 })} name={`answer${i}`} defaultValue={quiz?.answers[i]?.text} />
                <label className="mb-2 flex items-center gap-1 text-sm">
                  <input type="checkbox" name={`correct${i}`} defaultChecked={quiz?.answers[i]?.correct} />
                  {t('courses.component.field.correct')}
                </label>
              </div>
            ))}
            <Error errors={errors} name="answer0" />
          </fieldset>
          <Area label={t('courses.component.field.hint')} name="hint" defaultValue={quiz?.hint} rows={2} />
        </>
      ) : null}
      <Error errors={errors} name="form" />
      <Button type="submit" disabled={fetcher.state !== 'idle'}>
        {submitLabel}
      </Button>
    </fetcher.Form>
  )
}
