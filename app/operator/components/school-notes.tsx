// Operators' notes on a school (issue 27 §2): newest first with author and date; the form shows only
// to roles that may add one, and works without JavaScript.
import { Form } from '@remix-run/react'
import { Button, Card, TextAreaField } from '#app/components/ui.tsx'
import { formatDateTime } from '#app/utils/dates.ts'
import { useT } from '#app/utils/i18n-react.ts'
import type { FieldErrors } from '#app/utils/validation.ts'

export type SchoolNote = { id: string; author: string; body: string; createdAt: number }

export function SchoolNotesCard({ notes, canAdd, errors, value, busy }: { notes: SchoolNote[]; canAdd: boolean; errors: FieldErrors; value: string; busy: boolean }) {
  const t = useT()
  return (
    <Card className="space-y-4" data-school-notes>
      <h2 className="text-lg font-semibold">{t('operator.school.notes.title')}</h2>
      {canAdd ? (
        <Form method="post" className="space-y-2" noValidate>
          <input type="hidden" name="intent" value="note" />
          <TextAreaField label={t('operator.school.notes.label')} name="body" rows={3} maxLength={2000} defaultValue={value} hint={t('operator.school.notes.hint')} error={errors.body} />
          <Button type="submit" disabled={busy}>
            {t('operator.school.notes.add')}
          </Button>
        </Form>
      ) : null}
      {notes.length === 0 ? (
        <p className="text-slate-600">{t('operator.school.notes.empty')}</p>
      ) : (
        <ol className="divide-y divide-slate-100">
          {notes.map((n) => (
            <li key={n.id} className="py-3" data-note={n.id}>
              <p className="whitespace-pre-wrap text-sm">{n.body}</p>
              <p className="mt-1 text-xs text-slate-500">{t('operator.school.notes.by', { author: n.author, date: formatDateTime(n.createdAt) })}</p>
            </li>
          ))}
        </ol>
      )}
    </Card>
  )
}
