// "Type DELETE to confirm" (seed 001 §5) for sections and lectures: a plain form, checked on the server.
import { Form, useNavigation } from '@remix-run/react'
import { useT } from '#app/utils/i18n-react.ts'
import type { FieldMessage } from '#app/utils/validation.ts'
import { Button, Card, Field } from '#app/components/ui.tsx'

export function CourseDeleteForm({ title, warning, error }: { title: string; warning: string; error?: FieldMessage }) {
  const t = useT()
  const busy = useNavigation().state === 'submitting'
  return (
    <Card className="border-red-200">
      <h2 className="text-lg font-semibold text-red-800">{title}</h2>
      <p className="mt-1 text-sm text-slate-600">{warning}</p>
      <Form method="post" className="mt-3 flex flex-wrap items-start gap-3" noValidate data-delete-form>
        <input type="hidden" name="intent" value="delete" />
        <Field className="min-w-48" label={t('courses.delete.confirm_label')} name="confirm" autoComplete="off" error={error} />
        <Button type="submit" variant="danger" className="mt-6" disabled={busy}>
          {t('courses.delete.button')}
        </Button>
      </Form>
    </Card>
  )
}
