import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { Alert, Button, Card, cx, Field, PageTitle, SelectField } from '#app/components/ui.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { TransactionTable } from '#app/payments/components/transaction-table.tsx'
import { grantProductAccess, listGrantableProducts, listUserAccess, revokeProductAccess } from '#app/models/access.server.ts'
import { getStudent, hasPendingInvitation } from '#app/models/student.server.ts'
import { listSchoolTransactions } from '#app/models/transaction-report.server.ts'
import { requireStaff, staffAction } from '#app/auth/staff.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { formatDate } from '#app/utils/dates.ts'
import { useFieldMessage, useLocale, useT } from '#app/utils/i18n-react.ts'
import { getT, notFound, requireSchool } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { text, type FieldErrors } from '#app/utils/validation.ts'

const REASON_MAX = 255
const id = z.string().min(1).max(64)
const AccessSchema = z.object({ productId: id, reason: text({ max: REASON_MAX }) })

/** The newest of a student's transactions shown here; the rest via /home/transactions?student=. */
const TRANSACTIONS_SHOWN = 10

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

/** The student is looked up in this school first: another school's id is 404 for everyone. */
async function loadStudent(tenant: { id: string }, { context, params }: Pick<LoaderFunctionArgs, 'context' | 'params'>) {
  return (await getStudent(context.db, tenant.id, params.studentId ?? '')) ?? notFound()
}

export async function loader(args: LoaderFunctionArgs) {
  const tenant = requireSchool(args.context)
  const student = await loadStudent(tenant, args)
  await requireStaff(args)
  const { request, context } = args
  const [access, products, invited, transactions] = await Promise.all([
    listUserAccess(context.db, tenant.id, student.id),
    listGrantableProducts(context.db, tenant.id),
    hasPendingInvitation(context.db, tenant.id, student.id),
    listSchoolTransactions(context.db, tenant.id, { userId: student.id, perPage: TRANSACTIONS_SHOWN }),
  ])
  return {
    title: `${student.name || student.email} · ${getT(request, context)('students.title')} · ${tenant.name}`,
    student: { ...student, invited },
    access,
    products,
    transactions: transactions.rows,
    transactionTotal: transactions.total,
  }
}

const back = (request: Request, studentId: string, done: 'granted' | 'denied') => redirectWithFlash(request, `/home/students/${studentId}`, { done, message: `students.done.${done}` })

export const action = staffAction({
  load: loadStudent,
  intents: (intent) => ({
    grant: intent(AccessSchema, async (input, { tenant, user, request, context, loaded: student }) => {
      const values = { intent: 'grant', productId: input.productId, reason: input.reason }
      const result = await grantProductAccess(context.db, tenant.id, { productId: input.productId, userId: student.id, source: 'manual', reason: input.reason, grantedBy: user.id })
      if (result === 'already') return formError({ productId: { key: 'students.access.already' } }, values, 409)
      // The student is this school's: not_found means the product is not.
      if (result === 'not_found') return formError({ productId: { key: 'validation.in' } }, values)
      throw back(request, student.id, 'granted')
    }),
    deny: intent(AccessSchema, async (input, { tenant, request, context, loaded: student }) => {
      if (!(await revokeProductAccess(context.db, tenant.id, input.productId, student.id, input.reason))) {
        return formError({ form: { key: 'students.access.not_active' } }, { intent: 'deny', productId: input.productId, reason: input.reason }, 409)
      }
      throw back(request, student.id, 'denied')
    }),
  }),
})

export default function StudentPage() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const t = useT()
  const locale = useLocale()
  const message = useFieldMessage()
  const busy = useNavigation().state === 'submitting'
  const errors = (actionData?.errors ?? {}) as FieldErrors
  const values = (actionData?.values ?? {}) as Record<string, string>
  const errorsOf = (intent: string, productId?: string) => (values.intent === intent && (!productId || values.productId === productId) ? errors : {})
  const { student } = data

  return (
    <div className="space-y-6">
      <Link to="/home/students" className="text-sm font-medium text-brand-700 hover:underline">
        ← {t('students.back')}
      </Link>
      <PageTitle subtitle={student.email}>{student.name || student.email}</PageTitle>
      <FlashMessage hidden={Boolean(actionData)} />
      {errors.form ? <Alert>{message(errors.form)}</Alert> : null}

      <Card>
        <h2 className="text-lg font-semibold">{t('students.details.title')}</h2>
        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm" data-student-details>
          <dt className="text-slate-500">{t('students.field.name')}</dt>
          <dd>{student.name}</dd>
          <dt className="text-slate-500">{t('students.field.email')}</dt>
          <dd>{student.email}</dd>
          <dt className="text-slate-500">{t('students.field.phone')}</dt>
          <dd>{student.phone || '—'}</dd>
          <dt className="text-slate-500">{t('students.field.vat_id')}</dt>
          <dd>{student.vatId || '—'}</dd>
          <dt className="text-slate-500">{t('students.list.joined')}</dt>
          <dd>{formatDate(student.createdAt, locale)}</dd>
          <dt className="text-slate-500">{t('students.details.account')}</dt>
          <dd data-invitation={student.invited ? 'pending' : 'none'}>{t(student.invited ? 'students.details.invited' : 'students.details.active')}</dd>
        </dl>
      </Card>

      <Card className="space-y-4">
        <h2 className="text-lg font-semibold">{t('students.access.title')}</h2>
        {data.products.length === 0 ? (
          <p className="text-slate-600">{t('students.access.no_products')}</p>
        ) : (
          <Form method="post" className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-start" noValidate data-grant>
            <input type="hidden" name="intent" value="grant" />
            <SelectField
              label={t('students.access.product')}
              name="productId"
              defaultValue={values.intent === 'grant' ? values.productId : undefined}
              options={data.products.map((p) => ({ value: p.id, label: `${p.title} (${t(`students.kind.${p.kind}`)})` }))}
              error={errorsOf('grant').productId}
            />
            <Field label={t('students.access.reason')} name="reason" maxLength={REASON_MAX} required autoComplete="off" defaultValue={values.intent === 'grant' ? values.reason : undefined} error={errorsOf('grant').reason} />
            <Button type="submit" className="sm:mt-6" disabled={busy}>
              {t('students.access.grant')}
            </Button>
          </Form>
        )}
        {data.access.length === 0 ? (
          <p className="text-slate-600">{t('students.access.empty')}</p>
        ) : (
          <ul className="divide-y divide-slate-100" data-student-access>
            {data.access.map((a) => (
              <li key={a.productId} className="flex flex-wrap items-start justify-between gap-3 py-3" data-access-product={a.title} data-access-status={a.status}>
                <div className="min-w-0">
                  <p className="font-medium">{a.title}</p>
                  <p className="text-sm text-slate-500">
                    <span className={cx('mr-2 rounded px-2 py-0.5 text-xs font-semibold', a.status === 'active' ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-100 text-slate-700')}>
                      {t(`students.access.status.${a.status}`)}
                    </span>
                    {t(`students.access.source.${a.source}`)} · {t('students.access.since', { date: formatDate(a.startsAt, locale) })}
                    {a.expiresAt ? ` · ${t('students.access.until', { date: formatDate(a.expiresAt, locale) })}` : ''}
                    {a.reason ? ` · ${a.reason}` : ''}
                  </p>
                  {a.revokedAt ? (
                    <p className="text-sm text-slate-500" data-revoked-reason>
                      {t('students.access.denied_on', { date: formatDate(a.revokedAt, locale) })}
                      {a.revokedReason ? `: ${a.revokedReason}` : ''}
                    </p>
                  ) : null}
                </div>
                {a.status !== 'revoked' ? (
                  <Form method="post" className="flex flex-wrap items-start gap-2" noValidate data-deny>
                    <input type="hidden" name="intent" value="deny" />
                    <input type="hidden" name="productId" value={a.productId} />
                    <Field
                      className="w-52"
                      label={t('students.access.deny_reason')}
                      name="reason"
                      maxLength={REASON_MAX}
                      required
                      autoComplete="off"
                      error={errorsOf('deny', a.productId).reason}
                    />
                    <Button type="submit" variant="danger" className="mt-6" disabled={busy} aria-label={t('students.access.deny_label', { name: a.title })}>
                      {t('students.access.deny')}
                    </Button>
                  </Form>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Card>

      <Card data-student-transactions>
        <h2 className="text-lg font-semibold">{t('students.transactions.title')}</h2>
        {data.transactions.length === 0 ? (
          <p className="mt-2 text-slate-600" data-transactions-empty>
            {t('students.transactions.empty')}
          </p>
        ) : (
          <div className="mt-3 space-y-3">
            <TransactionTable rows={data.transactions} showBuyer={false} />
            {data.transactionTotal > data.transactions.length ? (
              <Link to={`/home/transactions?${new URLSearchParams({ student: student.id })}`} className="text-sm font-medium text-brand-700 hover:underline">
                {t('students.transactions.all', { count: data.transactionTotal })}
              </Link>
            ) : null}
          </div>
        )}
      </Card>
    </div>
  )
}
