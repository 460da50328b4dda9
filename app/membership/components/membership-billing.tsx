// A membership's billing on its /panel card (issue 8 item 6; seed 000 widgets 12 and 14, §4 cancel
// flow, §5, §9): status (active, at risk with the payment problem, canceled with "access until",
// ended), renewal date, card on file, 'Update card' (the card form) and 'Cancel membership' →
// confirmation (type CANCEL) → exit survey (reason, explanation, return intent; submit locked 3 s
// after sending, unlocked at once on error; closing it reloads the page; STARTED reloads at once).
// Without JavaScript the cancel and the survey are plain forms and the server's 303s come back
// here with ?cancel_survey / ?membership_notice / ?membership_error.
import { Form, useSearchParams } from '@remix-run/react'
import { useEffect, useId, useRef, useState } from 'react'
import type { MembershipBillingView } from '#app/domain/billing-view.ts'
import { declineMessageKeys } from '#app/domain/payment-failure.ts'
import { SURVEY_REASONS, SURVEY_RETURN_INTENTS } from '#app/domain/membership-survey.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { CardForm } from '#app/payments/components/card-form.tsx'
import { Alert, Button, cx } from '#app/components/ui.tsx'
import { goToLogin } from '#app/utils/go-to-login.ts'

/** Seed 000 §9 "Cancel-survey lock 3 s". */
export const SURVEY_LOCK_MS = 3000
const CONFIRM_WORD = 'CANCEL'
const EXPLAINED = ['other', 'technical']

const scriptHeaders = { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' }
type Errors = Record<string, string[] | undefined>

const NOTICE_KEYS: Record<string, string> = {
  canceled: 'membership.cancel.done',
  survey_thanks: 'membership.survey.thanks',
  card_updated: 'membership.card_updated',
}
const ERROR_KEYS: Record<string, string> = {
  confirm: 'membership.cancel.error.confirm',
  ended: 'membership.cancel.error.ended',
  provider: 'membership.cancel.error.provider',
  survey_already: 'membership.survey.error.already',
  survey_not_canceled: 'membership.survey.error.not_canceled',
  card_cypher: 'membership.card.error.cypher',
  card_fields: 'membership.card.error.fields',
  card_problem: 'membership.card.error.problem',
  card_state: 'membership.card.error.membership_state',
  card_provider: 'membership.card.error.membership_provider',
  card_not_supported: 'cards.update.error.not_supported',
  card_unavailable: 'cards.update.error.unavailable',
  card_refused: 'cards.update.error.refused',
  card_declined: 'cards.update.error.declined',
}

/** Seed 000 §4 "reloads the page": /panel again, without the one-off notices of the last answer. */
function reloadPanel(id: string) {
  const target = `/panel#membership-${id}`
  if (window.location.pathname === '/panel' && !window.location.search) window.location.reload()
  else window.location.assign(target)
}

function useHydrated() {
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  return hydrated
}

function Modal({ open, label, children, onClose, name }: { open: boolean; label: string; children: React.ReactNode; onClose: () => void; name: string }) {
  const ref = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) dialog.showModal()
    if (!open && dialog.open) dialog.close()
  }, [open])
  return (
    <dialog
      ref={ref}
      aria-label={label}
      {...{ [`data-${name}`]: '' }}
      className="m-auto w-[min(30rem,calc(100vw-2rem))] rounded-xl border border-slate-200 p-0 shadow-xl backdrop:bg-slate-900/40"
      onCancel={(event) => {
        event.preventDefault()
        onClose()
      }}
    >
      {open ? <div className="p-5">{children}</div> : null}
    </dialog>
  )
}

export function MembershipBilling({ billing }: { billing: MembershipBillingView }) {
  const t = useT()
  const hydrated = useHydrated()
  const [params] = useSearchParams()
  const [confirmOpen, setConfirmOpen] = useState(false)
  const [surveyOpen, setSurveyOpen] = useState(false)
  const [cardOpen, setCardOpen] = useState(false)
  const forThis = params.get('membership') === billing.id
  const notice = forThis ? NOTICE_KEYS[params.get('membership_notice') ?? ''] : undefined
  const error = forThis ? ERROR_KEYS[params.get('membership_error') ?? ''] : undefined
  // The no-JS path: after the cancel form, the survey comes back open as a plain form.
  const inlineSurvey = params.get('cancel_survey') === billing.id && billing.status === 'canceled' && !billing.surveyDone
  const surveyErrors = inlineSurvey ? (params.get('survey_errors') ?? '').split(',').filter(Boolean) : []

  return (
    <div className="mt-2 space-y-2 rounded-lg bg-slate-50 p-3" id={`membership-${billing.id}`} data-membership-billing={billing.id} data-membership-status={billing.status}>
      <p className="flex flex-wrap items-center gap-2">
        <span
          className={cx(
            'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold',
            billing.status === 'active' && 'bg-emerald-100 text-emerald-800',
            billing.status === 'started' && 'bg-sky-100 text-sky-800',
            billing.status === 'at_risk' && 'bg-amber-100 text-amber-900',
            billing.status === 'canceled' && 'bg-slate-200 text-slate-700',
            billing.status === 'ended' && 'bg-slate-200 text-slate-700',
          )}
          data-subscription-status={billing.status}
        >
          {t(`membership.status.${billing.status}`)}
        </span>
        {billing.renewsOn ? <span data-membership-renews>{t('membership.renews_on', { date: billing.renewsOn })}</span> : null}
        {billing.status === 'canceled' ? (
          <span data-membership-access-until>{billing.accessUntil ? t('membership.access_until', { date: billing.accessUntil }) : t('membership.access_until_lifetime')}</span>
        ) : null}
        {billing.endedOn ? <span data-membership-ended>{t('membership.ended_on', { date: billing.endedOn })}</span> : null}
      </p>
      {billing.status === 'at_risk' ? (
        <div className="text-sm font-medium text-amber-900" role="alert" data-membership-payment-problem>
          <p>{t('membership.at_risk')}</p>
          {billing.declineReason ? (
            <p data-membership-decline-reason={billing.declineReason}>
              {t('membership.decline_reason', { reason: t(declineMessageKeys(billing.declineReason).title) })} {t(declineMessageKeys(billing.declineReason).hint)}
            </p>
          ) : null}
        </div>
      ) : null}
      {billing.status !== 'ended' && !billing.lifetime ? (
        <p data-membership-card>
          {billing.card
            ? t('membership.card_on_file', { brand: billing.card.brand, last4: billing.card.last4, month: billing.card.month, year: billing.card.year })
            : billing.paysWith !== null
              ? t('membership.pays_with', { account: billing.paysWith || t(`payments.provider.${billing.provider}`) })
              : t('membership.no_card')}
        </p>
      ) : null}
      {notice ? <Alert tone="success">{t(notice)}</Alert> : null}
      {error ? <Alert>{t(error)}</Alert> : null}

      {billing.canUpdateCard || billing.canCancel ? (
        <div className="flex flex-wrap gap-2 pt-1">
          {billing.canUpdateCard ? (
            <Button type="button" variant="secondary" onClick={() => setCardOpen(true)} disabled={!hydrated} data-membership-update-card>
              {t('membership.update_card')}
            </Button>
          ) : null}
          {billing.canCancel && hydrated ? (
            <Button type="button" variant="secondary" onClick={() => setConfirmOpen(true)} data-membership-cancel>
              {t('membership.cancel')}
            </Button>
          ) : null}
        </div>
      ) : null}
      {billing.cardAtProvider ? (
        // A plain form: works before JavaScript loads, and the provider's page or fields take it from there.
        <Form method="post" action="/my/membership/card" className="space-y-1" data-membership-card-at-provider={billing.provider ?? ''}>
          <input type="hidden" name="intent" value="provider" />
          <input type="hidden" name="membership_id" value={billing.id} />
          <Button type="submit" variant="secondary">
            {t('cards.update.at_provider', { provider: t(`payments.provider.${billing.provider}`) })}
          </Button>
          <p className="text-xs text-slate-500">{t(billing.cardFieldsHere ? 'cards.update.at_provider.hint_fields' : 'cards.update.at_provider.hint', { provider: t(`payments.provider.${billing.provider}`) })}</p>
        </Form>
      ) : null}
      {billing.canUpdateCard && !hydrated ? (
        <noscript>
          <p className="text-sm text-slate-600" data-card-nojs>
            {t('membership.card.no_js')}
          </p>
        </noscript>
      ) : null}
      {billing.canCancel && !hydrated ? <NoScriptCancel id={billing.id} /> : null}
      {inlineSurvey ? (
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <SurveyFields id={billing.id} serverErrors={Object.fromEntries(surveyErrors.map((f) => [f, [t(`membership.survey.error.${f}`)]]))} plain />
        </div>
      ) : null}

      <Modal open={cardOpen} label={t('membership.card.title')} name="card-modal" onClose={() => setCardOpen(false)}>
        <h2 className="mb-3 text-lg font-semibold text-slate-900">{t('membership.card.title')}</h2>
        {cardOpen ? <CardForm membershipId={billing.id} onCancel={() => setCardOpen(false)} /> : null}
      </Modal>
      <ConfirmCancel
        id={billing.id}
        open={confirmOpen}
        onClose={() => setConfirmOpen(false)}
        onCanceled={(survey) => {
          setConfirmOpen(false)
          if (survey) setSurveyOpen(true)
          else reloadPanel(billing.id)
        }}
      />
      <Modal open={surveyOpen} label={t('membership.survey.title')} name="survey-modal" onClose={() => reloadPanel(billing.id)}>
        <SurveyFields id={billing.id} onClose={() => reloadPanel(billing.id)} />
      </Modal>
    </div>
  )
}

/** Without JavaScript: the cancel confirmation as a plain form (type CANCEL). */
function NoScriptCancel({ id }: { id: string }) {
  const t = useT()
  const field = useId()
  return (
    <details className="text-sm" data-membership-cancel-nojs>
      <summary className="cursor-pointer font-semibold text-red-700">{t('membership.cancel')}</summary>
      <Form method="post" action="/my/membership/cancel" reloadDocument className="mt-2 space-y-2">
        <p className="text-slate-600">{t('membership.cancel.text')}</p>
        <input type="hidden" name="membership_id" value={id} />
        <label htmlFor={field} className="block font-medium text-slate-700">
          {t('membership.cancel.confirm_label')}
        </label>
        <input id={field} name="confirm" autoComplete="off" className="block w-full rounded-md border border-slate-300 px-3 py-2" />
        <Button type="submit" variant="danger">
          {t('membership.cancel.submit')}
        </Button>
      </Form>
    </details>
  )
}

function ConfirmCancel({ id, open, onClose, onCanceled }: { id: string; open: boolean; onClose: () => void; onCanceled: (survey: boolean) => void }) {
  const t = useT()
  const field = useId()
  const [typed, setTyped] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  async function confirm(event: React.FormEvent) {
    event.preventDefault()
    if (typed.trim() !== CONFIRM_WORD) return setError(t('membership.cancel.error.confirm'))
    setBusy(true)
    setError(null)
    try {
      const res = await fetch('/my/membership/cancel', { method: 'POST', headers: scriptHeaders, body: new URLSearchParams({ membership_id: id, confirm: CONFIRM_WORD }).toString() })
      if (res.status === 419) return goToLogin()
      const body = (await res.json().catch(() => null)) as { status?: string; survey?: boolean; errors?: Errors } | null
      if (!res.ok) return setError(Object.values(body?.errors ?? {}).flat()[0] ?? t('membership.error.generic'))
      // Seed 000 §4: STARTED reloads the page; otherwise the survey opens.
      if (body?.status === 'STARTED') return reloadPanel(id)
      onCanceled(Boolean(body?.survey))
    } catch {
      setError(t('membership.error.generic'))
    } finally {
      setBusy(false)
    }
  }
  return (
    <Modal open={open} label={t('membership.cancel.title')} name="cancel-modal" onClose={onClose}>
      <form onSubmit={confirm} className="space-y-3">
        <h2 className="text-lg font-semibold text-slate-900">{t('membership.cancel.title')}</h2>
        <p className="text-sm text-slate-600">{t('membership.cancel.text')}</p>
        <label htmlFor={field} className="block text-sm font-medium text-slate-700">
          {t('membership.cancel.confirm_label')}
        </label>
        <input
          id={field}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          autoComplete="off"
          data-cancel-confirm-input
          className="block w-full rounded-md border border-slate-300 px-3 py-2"
        />
        {error ? <Alert>{error}</Alert> : null}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={onClose} autoFocus>
            {t('membership.cancel.keep')}
          </Button>
          <Button type="submit" variant="danger" disabled={busy || typed.trim() !== CONFIRM_WORD} data-cancel-confirm>
            {t('membership.cancel.submit')}
          </Button>
        </div>
      </form>
    </Modal>
  )
}

/**
 * The exit survey. `plain`: a plain form posting to the server (no JavaScript needed). Otherwise
 * sent with fetch: the submit button is locked for 3 s after sending and unlocked at once on error.
 */
function SurveyFields({ id, serverErrors = {}, plain = false, onClose }: { id: string; serverErrors?: Errors; plain?: boolean; onClose?: () => void }) {
  const t = useT()
  const uid = useId()
  const [reason, setReason] = useState('')
  const [errors, setErrors] = useState<Errors>(serverErrors)
  const [locked, setLocked] = useState(false)
  const [done, setDone] = useState(false)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), [])

  async function send(event: React.FormEvent<HTMLFormElement>) {
    if (plain) return
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    setLocked(true)
    timer.current = setTimeout(() => setLocked(false), SURVEY_LOCK_MS)
    const unlock = () => {
      if (timer.current) clearTimeout(timer.current)
      setLocked(false)
    }
    try {
      const res = await fetch('/my/membership/cancel-survey', {
        method: 'POST',
        headers: scriptHeaders,
        body: new URLSearchParams([...form.entries()].map(([k, v]) => [k, String(v)])).toString(),
      })
      if (res.status === 419) return goToLogin()
      const body = (await res.json().catch(() => null)) as { ok?: boolean; errors?: Errors } | null
      if (res.ok && body?.ok) {
        setErrors({})
        setDone(true)
        return
      }
      unlock()
      setErrors(body?.errors ?? { membership_id: [t('membership.error.generic')] })
    } catch {
      unlock()
      setErrors({ membership_id: [t('membership.error.generic')] })
    }
  }

  const fieldError = (name: string) =>
    errors[name]?.[0] ? (
      <p className="text-sm text-red-600" data-survey-error={name}>
        {errors[name]![0]}
      </p>
    ) : null

  if (done) {
    return (
      <div className="space-y-3" data-cancel-survey-done>
        <Alert tone="success">{t('membership.survey.thanks')}</Alert>
        <div className="flex justify-end">
          <Button type="button" onClick={onClose} data-survey-close>
            {t('membership.survey.close')}
          </Button>
        </div>
      </div>
    )
  }

  return (
    <Form method="post" action="/my/membership/cancel-survey" reloadDocument onSubmit={send} className="space-y-4" data-cancel-survey noValidate>
      <div>
        <h2 className="text-lg font-semibold text-slate-900">{t('membership.survey.title')}</h2>
        <p className="text-sm text-slate-600">{t('membership.survey.intro')}</p>
      </div>
      <input type="hidden" name="membership_id" value={id} />
      <fieldset className="space-y-1" aria-invalid={errors.reason ? true : undefined}>
        <legend className="text-sm font-medium text-slate-700">{t('membership.survey.reason')}</legend>
        {SURVEY_REASONS.map((r) => (
          <label key={r} className="flex items-center gap-2 text-sm">
            <input type="radio" name="reason" value={r} onChange={() => setReason(r)} data-survey-reason={r} />
            {t(`membership.survey.reason.${r}`)}
          </label>
        ))}
        {fieldError('reason')}
      </fieldset>
      <div className="space-y-1">
        <label htmlFor={`${uid}-other`} className="block text-sm font-medium text-slate-700">
          {t('membership.survey.other_reason')}
        </label>
        <textarea
          id={`${uid}-other`}
          name="other_reason"
          rows={3}
          maxLength={2000}
          aria-invalid={errors.other_reason ? true : undefined}
          aria-required={EXPLAINED.includes(reason) || undefined}
          className="block w-full rounded-md border border-slate-300 px-3 py-2"
          data-survey-other
        />
        <p className="text-xs text-slate-500">{t('membership.survey.other_reason_hint')}</p>
        {fieldError('other_reason')}
      </div>
      <fieldset className="space-y-1" aria-invalid={errors.return_intent ? true : undefined}>
        <legend className="text-sm font-medium text-slate-700">{t('membership.survey.return_intent')}</legend>
        {SURVEY_RETURN_INTENTS.map((r) => (
          <label key={r} className="flex items-center gap-2 text-sm">
            <input type="radio" name="return_intent" value={r} data-survey-return={r} />
            {t(`membership.survey.return.${r}`)}
          </label>
        ))}
        {fieldError('return_intent')}
      </fieldset>
      {fieldError('membership_id')}
      <div className="flex justify-end gap-2">
        {onClose ? (
          <Button type="button" variant="secondary" onClick={onClose} data-survey-close>
            {t('membership.survey.close')}
          </Button>
        ) : null}
        <Button type="submit" disabled={locked} data-survey-submit>
          {t('membership.survey.submit')}
        </Button>
      </div>
    </Form>
  )
}
