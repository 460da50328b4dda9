// The /verify page (ADR 017, seed 000 §2): the e-mail or text-message code, the phone number when
// the school asks for texts and none is stored, the resend countdown. Works as plain forms before
// JavaScript loads; with it, the three forms post in place.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { Alert, Button, Card, Field, PageTitle } from '#app/components/ui.tsx'
import { useT } from '#app/utils/i18n-react.ts'

export const CODE_MAX = 6
export const DEFAULT_PHONE_PREFIX = '+48'
export const PHONE_PREFIX_MAX = 4

export type VerifyPageData = {
  title: string
  school: string
  mode: 'phone' | 'email'
  email: string
  phone: string | null
  sent: boolean
  lockSeconds: number
  redirectTo: string
}

export type ActionResult = {
  ok: boolean
  intent: 'send' | 'verify' | 'save_phone'
  message?: string
  lockSeconds?: number
  phone?: string
}

function useCountdown(initial: number) {
  const [until, setUntil] = useState(() => (initial > 0 ? Date.now() + initial * 1000 : 0))
  const [left, setLeft] = useState(initial > 0 ? initial : 0)
  useEffect(() => {
    if (!until) return
    const tick = () => setLeft(Math.max(0, Math.ceil((until - Date.now()) / 1000)))
    tick()
    const timer = setInterval(tick, 1000)
    return () => clearInterval(timer)
  }, [until])
  return {
    left,
    start: (seconds: number) => setUntil(Date.now() + seconds * 1000),
  }
}

async function postJson(path: string, body: Record<string, string>) {
  const res = await fetch(path, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json',
      'X-Requested-With': 'XMLHttpRequest',
    },
    body: JSON.stringify(body),
  })
  let json: Record<string, unknown> = {}
  try {
    json = (await res.json()) as Record<string, unknown>
  } catch {
    /* not JSON: treated as a failure below */
  }
  return { status: res.status, ok: res.ok, json }
}

export function VerifyPage({ data, actionData }: { data: VerifyPageData; actionData: ActionResult | undefined }) {
  const t = useT()
  const codeId = useId()
  const codeRef = useRef<HTMLInputElement>(null)
  const [phone, setPhone] = useState<string | null>(actionData?.intent === 'save_phone' && actionData.phone ? actionData.phone : data.phone)
  const [sent, setSent] = useState(data.sent || (actionData?.intent === 'send' && actionData.ok) || actionData?.intent === 'verify')
  const [error, setError] = useState<{
    intent: ActionResult['intent']
    message: string
  } | null>(actionData && !actionData.ok && actionData.message ? { intent: actionData.intent, message: actionData.message } : null)
  const [busy, setBusy] = useState<ActionResult['intent'] | null>(null)
  const [verified, setVerified] = useState(false)
  const countdown = useCountdown(actionData?.intent === 'send' && actionData.lockSeconds ? actionData.lockSeconds : data.lockSeconds)
  const needsPhone = data.mode === 'phone' && !phone
  // Without JavaScript nothing would re-enable the button: the lock then shows as text and the
  // server answers an early resend with its 429 message.
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  const locked = hydrated && countdown.left > 0

  // Seed 000 §2: after a successful verification, /panel (or the kept page) after about 200 ms.
  useEffect(() => {
    if (!verified) return
    const timer = setTimeout(() => window.location.assign(data.redirectTo), 200)
    return () => clearTimeout(timer)
  }, [verified, data.redirectTo])

  async function onSend(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (busy || locked) return
    setBusy('send')
    setError(null)
    try {
      const res = await postJson('/json/verification/send', {})
      if (res.ok && res.json.success === false) {
        // Nothing to verify any more (seed 000 §2).
        window.location.assign(typeof res.json.redirectTo === 'string' ? res.json.redirectTo : '/panel')
        return
      }
      if (res.status === 419) {
        window.location.assign(`/login?redirectTo=${encodeURIComponent('/verify')}`)
        return
      }
      if (!res.ok) {
        if (typeof res.json.retry_after === 'number' && res.status === 429) countdown.start(res.json.retry_after)
        if (res.json.phone_required) setPhone(null)
        setError({
          intent: 'send',
          message: typeof res.json.message === 'string' && res.status === 429 ? res.json.message : t('verification.error.send'),
        })
        return
      }
      setSent(true)
      countdown.start(typeof res.json.resend_in === 'number' ? res.json.resend_in : 60)
      setTimeout(() => codeRef.current?.focus(), 0)
    } catch {
      setError({ intent: 'send', message: t('verification.error.send') })
    } finally {
      setBusy(null)
    }
  }

  async function onVerify(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (busy) return
    const code = String(new FormData(event.currentTarget).get('code') ?? '')
    setBusy('verify')
    setError(null)
    try {
      const res = await postJson('/json/verification/verify', { code })
      if (res.ok && res.json.success === true) {
        setVerified(true)
        return
      }
      setError({ intent: 'verify', message: t('verification.error.code') })
      codeRef.current?.select()
    } catch {
      setError({ intent: 'verify', message: t('verification.error.code') })
    } finally {
      setBusy(null)
    }
  }

  async function onSavePhone(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (busy) return
    const form = new FormData(event.currentTarget)
    const prefix = String(form.get('prefix') ?? '').replace(/\D/g, '')
    const number = String(form.get('number') ?? '').replace(/\D/g, '')
    setError(null)
    // Seed 000 §5: both required, stripped to digits; phone_number is prefix plus number.
    if (!prefix || !number) {
      setError({
        intent: 'save_phone',
        message: t('verification.error.phone'),
      })
      return
    }
    setBusy('save_phone')
    try {
      const res = await postJson('/json/verification/phone/save', {
        phone_number: prefix + number,
      })
      if (res.ok && res.json.success === true && typeof res.json.phone === 'string') setPhone(res.json.phone)
      else
        setError({
          intent: 'save_phone',
          message: t('verification.error.phone'),
        })
    } catch {
      setError({
        intent: 'save_phone',
        message: t('verification.error.phone'),
      })
    } finally {
      setBusy(null)
    }
  }

  const errorFor = (intent: ActionResult['intent']) => (error?.intent === intent ? <Alert>{error.message}</Alert> : null)
  const hidden = <input type="hidden" name="redirectTo" value={data.redirectTo} />

  return (
    <div className="mx-auto max-w-md" data-verification={data.mode}>
      <PageTitle subtitle={t(data.mode === 'phone' ? 'verification.intro.phone' : 'verification.intro.email', { school: data.school })}>{t('verification.title')}</PageTitle>
      <Card className="space-y-6">
        {verified ? (
          <Alert tone="success">{t('verification.success')}</Alert>
        ) : needsPhone ? (
          <form method="post" onSubmit={onSavePhone} className="space-y-4" noValidate data-phone-form>
            <div>
              <h2 className="text-lg font-semibold text-slate-900">{t('verification.phone.title')}</h2>
              <p className="mt-1 text-sm text-slate-600">{t('verification.phone.intro')}</p>
            </div>
            {errorFor('save_phone')}
            <input type="hidden" name="intent" value="save_phone" />
            {hidden}
            <div className="grid grid-cols-[6rem_1fr] gap-3">
              <Field label={t('verification.phone.prefix')} name="prefix" defaultValue={DEFAULT_PHONE_PREFIX} maxLength={PHONE_PREFIX_MAX} inputMode="tel" autoComplete="tel-country-code" required />
              <Field label={t('verification.phone.number')} name="number" type="tel" inputMode="tel" autoComplete="tel-national" maxLength={30} required />
            </div>
            <Button type="submit" disabled={busy !== null} className="w-full sm:w-auto">
              {t('verification.phone.save')}
            </Button>
          </form>
        ) : (
          <>
            {sent ? null : (
              <p className="text-sm text-slate-700" data-destination>
                {data.mode === 'phone' ? t('verification.phone.saved', { phone: phone ?? '' }) : t('verification.destination.email', { email: data.email })}
              </p>
            )}
            <form method="post" onSubmit={onSend} className="space-y-2" data-send-form>
              {errorFor('send')}
              <input type="hidden" name="intent" value="send" />
              {hidden}
              {sent ? (
                <p role="status" className="text-sm text-emerald-800">
                  {data.mode === 'phone' ? t('verification.sent.phone', { phone: phone ?? '' }) : t('verification.sent.email', { email: data.email })}
                </p>
              ) : null}
              <Button type="submit" variant={sent ? 'secondary' : 'primary'} disabled={busy !== null || locked} aria-describedby={countdown.left > 0 ? `${codeId}-lock` : undefined}>
                {sent ? t('verification.resend') : t('verification.send')}
              </Button>
              {countdown.left > 0 ? (
                <p id={`${codeId}-lock`} className="text-sm text-slate-600" data-resend-countdown={countdown.left}>
                  {t('verification.resend_in', { seconds: countdown.left })}
                </p>
              ) : null}
            </form>
            {sent ? (
              <form method="post" onSubmit={onVerify} className="space-y-4 border-t border-slate-200 pt-6" noValidate data-verify-form>
                {errorFor('verify')}
                <input type="hidden" name="intent" value="verify" />
                {hidden}
                <div className="space-y-1">
                  <label htmlFor={codeId} className="block text-sm font-medium text-slate-700">
                    {t('verification.code')}
                  </label>
                  <input
                    ref={codeRef}
                    id={codeId}
                    name="code"
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    maxLength={CODE_MAX}
                    required
                    aria-invalid={error?.intent === 'verify' ? true : undefined}
                    aria-describedby={`${codeId}-hint`}
                    className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-center font-mono text-2xl tracking-[0.5em] text-slate-900 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100"
                  />
                  <p id={`${codeId}-hint`} className="text-xs text-slate-500">
                    {t('verification.code_hint')}
                  </p>
                </div>
                <Button type="submit" disabled={busy !== null} className="w-full">
                  {t('verification.verify')}
                </Button>
              </form>
            ) : null}
          </>
        )}
        <form method="post" action="/logout" className="border-t border-slate-200 pt-4">
          <button type="submit" className="text-sm font-medium text-slate-600 underline-offset-2 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600">
            {t('verification.logout')}
          </button>
        </form>
      </Card>
    </div>
  )
}
