// The Mailchimp page (/home/integrations/mailchimp, issue 9 item 3): the connect form, or the
// connected audience with whom to subscribe, the latest subscriptions and the disconnect step.
// The route keeps the loader and the intents it posts to.
import { Form, Link, useNavigation } from '@remix-run/react'
import { Alert, Button, Card, cx, Field, PageTitle } from '#app/components/ui.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { formatDate, formatDateTime } from '#app/utils/dates.ts'
import { useFieldMessage, useLocale, useT } from '#app/utils/i18n-react.ts'
import type { FieldErrors, FormValues } from '#app/utils/validation.ts'
import type { MailingMember } from '#app/models/mailing-member.server.ts'

export type MailchimpPageData = {
  connected: { id: string; keyHint: string; listId: string; listName: string; subscribeBuyers: boolean; subscribeLeads: boolean; enabled: boolean; createdAt: number } | null
  members: Array<Pick<MailingMember, 'id' | 'email' | 'source' | 'status' | 'error' | 'updatedAt'>>
}

export type ActionData = { errors: FieldErrors; values: FormValues }

function Checkbox({ name, label, defaultChecked }: { name: string; label: string; defaultChecked: boolean }) {
  return (
    <label className="flex items-center gap-2 text-sm text-slate-700">
      <input type="checkbox" name={name} defaultChecked={defaultChecked} className="h-4 w-4 rounded border-slate-300" />
      {label}
    </label>
  )
}

function ConnectForm({ action }: { action: ActionData | undefined }) {
  const t = useT()
  const message = useFieldMessage()
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'connect'
  const values = action?.values.intent === 'connect' ? action.values : undefined
  return (
    <Card data-mailing-connect>
      <h2 className="text-lg font-semibold">{t('mailing.connect_title')}</h2>
      <p className="mt-1 text-sm text-slate-600">{t('mailing.connect_hint')}</p>
      {action?.errors.form ? (
        <div className="mt-3" data-form-error>
          <Alert>{message(action.errors.form)}</Alert>
        </div>
      ) : null}
      {/* Keyed by the answer, so a refused form keeps what was typed (the key excepted). */}
      <Form method="post" className="mt-4 grid gap-4 sm:grid-cols-2" key={action ? 'answered' : 'fresh'}>
        <input type="hidden" name="intent" value="connect" />
        <Field label={t('mailing.field.apiKey')} hint={t('mailing.field.apiKey_hint')} name="apiKey" type="password" autoComplete="off" required error={action?.errors.apiKey} />
        <Field label={t('mailing.field.listId')} hint={t('mailing.field.listId_hint')} name="listId" autoComplete="off" required defaultValue={values?.listId} error={action?.errors.listId} />
        <div className="space-y-2 sm:col-span-2">
          <Checkbox name="subscribeBuyers" label={t('mailing.field.subscribeBuyers')} defaultChecked={values ? values.subscribeBuyers === 'on' : true} />
          <Checkbox name="subscribeLeads" label={t('mailing.field.subscribeLeads')} defaultChecked={values ? values.subscribeLeads === 'on' : true} />
        </div>
        <div className="sm:col-span-2">
          <Button type="submit" disabled={busy}>
            {busy ? t('mailing.connecting') : t('mailing.connect')}
          </Button>
        </div>
      </Form>
    </Card>
  )
}

const STATUS_TONE = { subscribed: 'bg-emerald-100 text-emerald-800', pending: 'bg-amber-100 text-amber-800', failed: 'bg-red-100 text-red-800' } as const

export function MailchimpPage({ data, action }: { data: MailchimpPageData; action: ActionData | undefined }) {
  const t = useT()
  const locale = useLocale()
  const message = useFieldMessage()
  const c = data.connected
  return (
    <div className="space-y-6">
      <p className="text-sm">
        <Link to="/home/integrations" className="font-medium text-brand-700 hover:underline">
          ← {t('mailing.back')}
        </Link>
      </p>
      <PageTitle subtitle={t('mailing.intro')}>{t('mailing.title')}</PageTitle>
      <FlashMessage hidden={Boolean(action)} />
      {c ? (
        <>
          {action?.errors.form ? (
            <div data-form-error>
              <Alert>{message(action.errors.form)}</Alert>
            </div>
          ) : null}
          <Card data-mailing-connected={c.listId}>
            <h2 className="text-lg font-semibold">{t('mailing.connected_title')}</h2>
            <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
              <dt className="text-slate-500">{t('mailing.key')}</dt>
              <dd className="font-mono" data-mailing-key>
                {c.keyHint}
              </dd>
              <dt className="text-slate-500">{t('mailing.list')}</dt>
              <dd>
                {c.listName} <span className="font-mono text-slate-500">({c.listId})</span>
              </dd>
              <dt className="text-slate-500">{t('mailing.connected_at')}</dt>
              <dd>{formatDate(c.createdAt, locale)}</dd>
            </dl>
            <Form method="post" className="mt-5 space-y-2" data-mailing-options>
              <h3 className="font-medium">{t('mailing.options')}</h3>
              <input type="hidden" name="intent" value="options" />
              <Checkbox name="subscribeBuyers" label={t('mailing.field.subscribeBuyers')} defaultChecked={c.subscribeBuyers} />
              <Checkbox name="subscribeLeads" label={t('mailing.field.subscribeLeads')} defaultChecked={c.subscribeLeads} />
              <Button type="submit" variant="secondary">
                {t('mailing.save_options')}
              </Button>
            </Form>
          </Card>
          <Card>
            <h2 className="text-lg font-semibold">{t('mailing.members')}</h2>
            {data.members.length === 0 ? (
              <p className="mt-3 text-sm text-slate-600" data-mailing-members-empty>
                {t('mailing.members_empty')}
              </p>
            ) : (
              <div className="mt-3">
                <DataTable
                  data-mailing-members
                  rows={data.members}
                  rowKey={(m) => m.id}
                  rowProps={(m) => ({ 'data-mailing-member': m.email, 'data-status': m.status })}
                  columns={[
                    { key: 'email', header: t('mailing.col.email'), className: 'font-medium', cell: (m) => m.email },
                    { key: 'source', header: t('mailing.col.source'), cell: (m) => t(`mailing.source.${m.source}`) },
                    { key: 'status', header: t('mailing.col.status'), cell: (m) => <span className={cx('rounded px-2 py-0.5 text-xs font-semibold', STATUS_TONE[m.status])}>{t(`mailing.status.${m.status}`)}</span> },
                    { key: 'updated', header: t('mailing.col.updated'), className: 'whitespace-nowrap', cell: (m) => formatDateTime(m.updatedAt) },
                    { key: 'error', header: t('mailing.col.error'), className: 'text-slate-600', cell: (m) => m.error ?? '' },
                  ]}
                />
              </div>
            )}
          </Card>
          <Card>
            <Form method="post" className="space-y-3" data-mailing-disconnect>
              <input type="hidden" name="intent" value="disconnect" />
              <h2 className="text-lg font-semibold">{t('mailing.disconnect')}</h2>
              <p className="text-sm text-slate-600">{t('mailing.disconnect_confirm')}</p>
              <label className="block text-sm">
                <span className="text-slate-700">{t('mailing.disconnect_confirm_label')}</span>
                <input name="confirm" autoComplete="off" className="mt-1 block w-40 rounded-md border border-slate-300 px-2 py-1" aria-invalid={action?.errors.confirm ? true : undefined} />
              </label>
              {action?.errors.confirm ? (
                <p className="text-sm text-red-700" role="alert">
                  {message(action.errors.confirm)}
                </p>
              ) : null}
              <Button type="submit" variant="danger">
                {t('mailing.disconnect')}
              </Button>
            </Form>
          </Card>
        </>
      ) : (
        <ConnectForm action={action} />
      )}
    </div>
  )
}
