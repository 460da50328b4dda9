// The access manager of a multi-seat purchase (issue 8 item 7, seed 000 widget 15 and §5): the
// course, licences left (quantity minus invitations, never below 0), the invitations with their
// status, a name + email form that invites, and deleting a 'sent' invitation after a confirmation.
// Without JavaScript the delete link opens a confirmation card whose plain form posts
// `_method=DELETE` to /home/access-manager/{courseId}/{invitationId}; with it a confirm dialog
// sends the DELETE. Only the buyer and the school's staff; anything else is 404.
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useNavigation, useRevalidator } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { z } from 'zod'
import { ConfirmModal } from '#app/components/confirm-modal.tsx'
import { Alert, Button, Card, Field, PageTitle } from '#app/components/ui.tsx'
import { licencesLeft, listInvitations, syncAcceptedInvitations } from '#app/models/access-invitation.server.ts'
import { getProduct } from '#app/models/product.server.ts'
import { INVITEE_NAME_MAX } from '#app/seats/limits.ts'
import { inviteToSeat, requireSeatPurchase, SeatInviteSchema } from '#app/seats/seats.server.ts'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import { getT } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { formToObject, parseWith, type FieldErrors, type FormValues } from '#app/utils/validation.ts'
import { goToLogin } from '#app/utils/go-to-login.ts'

/** What a redirect back from /home/access-manager may say (anything else is ignored). */
const BackSchema = z.object({
  done: z.enum(['invited', 'deleted']).optional().catch(undefined),
  error: z.enum(['invalid', 'no_licences', 'duplicate', 'not_paid', 'not_deletable']).optional().catch(undefined),
  delete: z.string().max(64).optional().catch(undefined),
})

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: 'robots', content: 'noindex' }]

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { tenant, tx } = await requireSeatPurchase(request, context, params.hash ?? '')
  await syncAcceptedInvitations(context.db, tenant.id, tx.id)
  const [product, invitations] = await Promise.all([getProduct(context.db, tenant.id, tx.productId), listInvitations(context.db, tenant.id, tx.id)])
  const back = BackSchema.parse(Object.fromEntries(new URL(request.url).searchParams))
  const confirm = invitations.find((i) => i.id === back.delete && i.status === 'sent')
  return {
    title: `${getT(request, context)('seats.title')} · ${tx.productTitle}`,
    hash: tx.hash,
    courseId: tx.productId,
    product: {
      title: product?.title ?? tx.productTitle,
      watch: product?.published ? `/${product.slug}/watch` : null,
    },
    quantity: tx.quantity,
    left: licencesLeft(tx.quantity, invitations.length),
    paid: tx.status === 'completed',
    invitations: invitations.map((i) => ({
      id: i.id,
      name: i.name,
      email: i.email,
      status: i.status,
    })),
    confirm: confirm ? { id: confirm.id, email: confirm.email } : null,
    done: back.done ?? null,
    error: back.error ?? null,
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { tenant, tx } = await requireSeatPurchase(request, context, params.hash ?? '')
  let input: Record<string, string>
  try {
    input = formToObject(await request.formData())
  } catch {
    return formError({ form: { key: 'validation.invalid' } }, {}, 400)
  }
  const values = {
    name: (input.name ?? '').slice(0, 500),
    email: (input.email ?? '').slice(0, 500),
  }
  const parsed = parseWith(SeatInviteSchema, input)
  if (!parsed.ok) return formError(parsed.errors, values, 422)
  const answer = await inviteToSeat(context, new URL(request.url).origin, tenant, tx, parsed.data)
  if (!answer.ok) return formError(answer.errors, values, answer.status)
  return { ok: true as const, invited: answer.email }
}

type ActionAnswer = { ok: true; invited: string } | { errors: FieldErrors; values: FormValues }

export default function SeatsPage() {
  const data = useLoaderData<typeof loader>()
  const action = useActionData<ActionAnswer>()
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
      : data.done === 'deleted'
      ? { tone: 'success' as const, text: t('seats.deleted') }
      : data.done === 'invited'
      ? { tone: 'success' as const, text: t('seats.invited_generic') }
      : null)
  return (
    <div className="mx-auto max-w-3xl space-y-6" data-seats data-seats-left={data.left}>
      <p className="text-sm">
        <Link to="/panel" className="font-semibold text-brand-700 hover:underline">
          ← {t('seats.back')}
        </Link>
      </p>
      <PageTitle subtitle={t('seats.subtitle', { product: data.product.title })}>{t('seats.title')}</PageTitle>
      {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
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
          <div className="overflow-x-auto">
            <table className="min-w-full text-left text-sm" data-seat-invitations>
              <thead className="text-slate-500">
                <tr>
                  <th scope="col" className="py-2 pr-4">
                    {t('seats.column.name')}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t('seats.column.email')}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t('seats.column.status')}
                  </th>
                  <th scope="col" className="py-2">
                    <span className="sr-only">{t('seats.column.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {data.invitations.map((i) => (
                  <tr key={i.id} data-seat-invitation={i.email} data-status={i.status}>
                    <td className="py-2 pr-4">{i.name}</td>
                    <td className="py-2 pr-4">{i.email}</td>
                    <td className="py-2 pr-4">
                      <span className={i.status === 'sent' ? 'text-amber-700' : 'text-emerald-700'} data-seat-status>
                        {t(`seats.status.${i.status}`)}
                      </span>
                    </td>
                    <td className="py-2 text-right">
                      {i.status === 'sent' ? (
                        <Link
                          to={`?delete=${i.id}`}
                          preventScrollReset
                          aria-label={t('seats.delete_label', {
                            email: i.email,
                          })}
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
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
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
