// The access manager of a multi-seat purchase (/panel/seats/{hash}, seed 000 widget 15): licences
// left, the invite form, the invitations, and deleting a 'sent' one (a confirm dialog with
// JavaScript, a confirmation card posting `_method=DELETE` without). The route keeps the loader
// and the invite action.
import { Form, Link, useNavigation, useRevalidator } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { ConfirmModal } from '#app/components/confirm-modal.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { Alert, Button, Card, Field, PageTitle } from '#app/components/ui.tsx'
import { INVITEE_NAME_MAX } from '#app/domain/seat-limits.ts'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import type { FieldErrors, FormValues } from '#app/utils/validation.ts'
import { goToLogin } from '#app/utils/go-to-login.ts'

export type SeatsManagerData = {
  courseId: string
  product: { title: string; watch: string | null }
  quantity: number
  left: number
  paid: boolean
  invitations: Array<{ id: string; name: string; email: string; status: string }>
  confirm: { id: string; email: string } | null
  error: string | null
}

export type ActionAnswer = { ok: true; invited: string } | { errors: FieldErrors; values: FormValues }

export function SeatsManager({ data, action }: { data: SeatsManagerData; action: ActionAnswer | undefined }) {
  const navigation = useNavigation()
  const revalidator = useRevalidator()
  const t = useT()
  const field = useFieldMessage()
  const form = useRef<HTMLFormElement>(null)
  const errors = action && 'errors' in action ? action.errors : {}
  const values = action && 'values' in action ? action.values : {}
  const busy = navigation.state !== 'idle'
  const [pending, setPending] = useState<{ id: string; email: string } | null>(null)
  const [deleting, setDeleting] = useState(false)
  const [scriptNotice, setScriptNotice] = useState<{
    tone: 'success' | 'error'
    text: string
  } | null>(null)

  useEffect(() => {
    if (action && 'ok' in action) form.current?.reset()
  }, [action])

  /** With JavaScript: the confirm dialog's "Delete invitation" sends the seed's DELETE call. */
  async function confirmDelete() {
    if (!pending) return
    setDeleting(true)
    try {
      const res = await fetch(`/home/access-manager/${data.courseId}/${pending.id}`, {
        method: 'DELETE',
        headers: {
          Accept: 'application/json',
          'X-Requested-With': 'XMLHttpRequest',
        },
      })
      const body = (await res.json().catch(() => ({}))) as { message?: string }
      if (res.status === 419) return goToLogin()
      setScriptNotice(res.ok ? { tone: 'success', text: t('seats.deleted') } : { tone: 'error', text: body.message ?? t('seats.error.generic') })
      revalidator.revalidate()
    } catch {
      setScriptNotice({ tone: 'error', text: t('seats.error.generic') })
    } finally {
      setDeleting(false)
      setPending(null)
    }
  }

  const notice =
    scriptNotice ??
    (action && 'ok' in action
      ? {
          tone: 'success' as const,
          text: t('seats.invited', { email: action.invited }),
        }
      : null)
  return (
    <div className="mx-auto max-w-3xl space-y-6" data-seats data-seats-left={data.left}>
      <p className="text-sm">
        <Link to="/panel" className="font-semibold text-brand-700 hover:underline">
          ← {t('seats.back')}
        </Link>
      </p>
      <PageTitle subtitle={t('seats.subtitle', { product: data.product.title })}>{t('seats.title')}</PageTitle>
      {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : <FlashMessage hidden={Boolean(action)} only={['invited', 'deleted']} />}
      {data.error ? <Alert>{t(`seats.error.${data.error}`)}</Alert> : null}

      <Card className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <p className="text-lg font-semibold" data-seats-product>
            {data.product.watch ? (
              <Link to={data.product.watch} className="text-brand-700 hover:underline">
                {data.product.title}
              </Link>
            ) : (
              data.product.title
            )}
          </p>
          <p className="text-sm text-slate-600">{t('seats.bought', { count: data.quantity })}</p>
        </div>
        <p className="rounded-full bg-brand-50 px-3 py-1 text-sm font-semibold text-brand-800" data-licences-left={data.left}>
          {t('seats.left', { count: data.left })}
        </p>
      </Card>

      {data.confirm ? (
        <Card className="space-y-3 border-red-200" data-seat-confirm>
          <h2 className="text-lg font-semibold">{t('seats.confirm.title')}</h2>
          <p className="text-sm text-slate-600">
            {t('seats.confirm.text', {
              email: data.confirm.email,
              product: data.product.title,
            })}
          </p>
          <div className="flex gap-2">
            <Form method="post" action={`/home/access-manager/${data.courseId}/${data.confirm.id}`} reloadDocument>
              <input type="hidden" name="_method" value="DELETE" />
              <Button type="submit" variant="danger">
                {t('seats.confirm.yes')}
              </Button>
            </Form>
            <Link to="." className="inline-flex items-center rounded-md border border-slate-300 px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-50">
              {t('seats.confirm.cancel')}
            </Link>
          </div>
        </Card>
      ) : null}

      <Card className="space-y-4">
        <h2 className="text-lg font-semibold">{t('seats.invite.title')}</h2>
        {!data.paid ? <Alert tone="info">{t('seats.not_paid_notice')}</Alert> : data.left === 0 ? <Alert tone="info">{t('seats.none_left')}</Alert> : null}
        {errors.form ? <Alert>{field(errors.form)}</Alert> : null}
        <Form method="post" ref={form} className="grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-start" data-seat-invite noValidate>
          <Field label={t('seats.field.name')} name="name" autoComplete="off" required maxLength={INVITEE_NAME_MAX} defaultValue={values.name} error={errors.name} />
          <Field label={t('seats.field.email')} name="email" type="email" autoComplete="off" required maxLength={254} defaultValue={values.email} error={errors.email} />
          <Button type="submit" className="sm:mt-6" disabled={busy || !data.paid || data.left === 0}>
            {t('seats.invite.submit')}
          </Button>
        </Form>
      </Card>

      <Card className="space-y-3">
        <h2 className="text-lg font-semibold">{t('seats.list.title')}</h2>
        {data.invitations.length === 0 ? (
          <p className="text-slate-600">{t('seats.list.empty')}</p>
        ) : (
          <DataTable
            data-seat-invitations
            rows={data.invitations}
            rowKey={(i) => i.id}
            rowProps={(i) => ({ 'data-seat-invitation': i.email, 'data-status': i.status })}
            columns={[
              { key: 'name', header: t('seats.column.name'), cell: (i) => i.name },
              { key: 'email', header: t('seats.column.email'), cell: (i) => i.email },
              {
                key: 'status',
                header: t('seats.column.status'),
                cell: (i) => (
                  <span className={i.status === 'sent' ? 'text-amber-700' : 'text-emerald-700'} data-seat-status>
                    {t(`seats.status.${i.status}`)}
                  </span>
                ),
              },
              {
                key: 'actions',
                header: t('seats.column.actions'),
                srOnlyHeader: true,
                className: 'text-right',
                cell: (i) =>
                  i.status === 'sent' ? (
                    <Link
                      to={`?delete=${i.id}`}
                      preventScrollReset
                      aria-label={t('seats.delete_label', { email: i.email })}
                      className="font-semibold text-red-700 hover:underline"
                      data-seat-delete
                      onClick={(event) => {
                        // Hydrated: the confirm dialog instead of the confirmation card.
                        event.preventDefault()
                        setScriptNotice(null)
                        setPending({ id: i.id, email: i.email })
                      }}
                    >
                      {t('seats.delete')}
                    </Link>
                  ) : null,
              },
            ]}
          />
        )}
      </Card>
      <ConfirmModal
        open={pending !== null}
        title={t('seats.confirm.title')}
        text={
          pending
            ? t('seats.confirm.text', {
                email: pending.email,
                product: data.product.title,
              })
            : undefined
        }
        confirmLabel={t('seats.confirm.yes')}
        cancelLabel={t('seats.confirm.cancel')}
        busy={deleting}
        onConfirm={confirmDelete}
        onCancel={() => setPending(null)}
      />
    </div>
  )
}
