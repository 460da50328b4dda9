// The card form around a provider's hosted fields (issue 25): our labels, our button, the
// provider's frames (or its tokenising script) in between. The provider's scripts come from the
// loader (nonce'd, allowed in this page's CSP); the browser glue of each provider turns the fields
// into a one-time token, which is the only card-related thing posted to our server.
import { Form, useNavigation } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { Alert, Button } from '#app/components/ui.tsx'
import { useT } from '#app/utils/i18n-react.ts'
import { useNonce } from '#app/utils/nonce.ts'
import { HOSTED_FIELDS_GLUE, type HostedFieldsInstance } from './hosted-fields-glue.ts'

export type HostedCardFormProps = {
  provider: string
  providerName: string
  scripts: string[]
  config: Record<string, unknown>
  locale: 'en' | 'pl'
  submitLabel: string
  /** A catalogue key of the answer's error, shown above the fields. */
  errorKey?: string | null
  hidden?: Record<string, string>
}

export function HostedCardForm({ provider, providerName, scripts, config, locale, submitLabel, errorKey, hidden = {} }: HostedCardFormProps) {
  const t = useT()
  const nonce = useNonce()
  const navigation = useNavigation()
  const form = useRef<HTMLFormElement>(null)
  const token = useRef<HTMLInputElement>(null)
  const fields = useRef<HostedFieldsInstance | null>(null)
  const [state, setState] = useState<'loading' | 'ready' | 'tokenizing' | 'failed'>('loading')
  const [problem, setProblem] = useState<string | null>(null)

  useEffect(() => {
    let gone = false
    const glue = HOSTED_FIELDS_GLUE[provider]
    if (!glue) return setState('failed')
    glue()
      .then((m) => m.mountHostedFields(config, locale))
      .then((instance) => {
        if (gone) return instance.teardown()
        fields.current = instance
        setState('ready')
      })
      .catch(() => !gone && setState('failed'))
    return () => {
      gone = true
      fields.current?.teardown()
      fields.current = null
    }
  }, [provider, config, locale])

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (!fields.current || state === 'tokenizing') return
    setState('tokenizing')
    setProblem(null)
    const result = await fields.current.tokenize().catch(() => ({ ok: false as const, reason: 'unavailable' as const }))
    if (!result.ok) {
      setProblem(result.reason === 'invalid' ? 'cards.error.invalid' : 'cards.error.unavailable')
      setState('ready')
      return
    }
    token.current!.value = result.token
    form.current!.submit()
  }

  const busy = state === 'tokenizing' || navigation.state === 'submitting'
  const shown = problem ?? errorKey ?? null
  return (
    <>
      {scripts.map((src) => (
        <script key={src} src={src} nonce={nonce} data-provider-script={provider} />
      ))}
      <Form method="post" ref={form} onSubmit={submit} className="space-y-4" data-hosted-card-form={provider} data-state={state}>
        {Object.entries(hidden).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name="token" ref={token} />
        <div aria-live="polite" data-card-error={shown ?? undefined}>
          {shown ? <Alert>{t(shown, { provider: providerName })}</Alert> : null}
          {state === 'failed' ? <Alert>{t('cards.error.fields', { provider: providerName })}</Alert> : null}
        </div>
        <noscript>
          <Alert>{t('cards.noscript', { provider: providerName })}</Alert>
        </noscript>
        {(['number', 'expiry', 'cvv'] as const).map((name) => (
          <div key={name}>
            <span id={`hf-${name}-label`} className="block text-sm font-medium text-slate-700">
              {t(`cards.field.${name}`)}
            </span>
            <div id={`hf-${name}`} role="group" aria-labelledby={`hf-${name}-label`} className="mt-1 min-h-10 rounded-md border border-slate-300 bg-white px-2 py-1" data-hosted-field={name} />
          </div>
        ))}
        <p className="text-xs text-slate-500">{t('cards.secure', { provider: providerName })}</p>
        <Button type="submit" disabled={state !== 'ready' || busy} aria-busy={busy}>
          {busy ? t('cards.processing') : submitLabel}
        </Button>
      </Form>
    </>
  )
}
