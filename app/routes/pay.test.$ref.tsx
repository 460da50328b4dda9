// /pay/test/{ref}: the built-in test provider's hosted page (development only, ADR 019). The buyer
// picks an outcome — or pays with one of the test cards, which answer like Stripe's test cards
// (app/domain/payment-failure.ts: 4000 0000 0000 9995 is "Insufficient funds", …) — and the page
// sends the provider's signed notification to the school's notify route code path (a worker cannot
// fetch its own host) and returns the buyer to the pending page. A decline says why: the reason
// travels in the notification and ends on the transaction as `status_reason = decline:{reason}`.
// "Slow" confirms seconds later (app/payments/test-slow.server.ts), so the pending page has to wait for it.
// The forms post as whole documents, as a provider's page does: the page after the payment loads
// fresh (the payment-success page runs the school's conversion code on a document load only).
import { testPaymentsAllowed } from '#app/payments/payment-mode.server.ts'
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { Button, Card, PageTitle, SelectField } from '#app/components/ui.tsx'
import { getTransactionByProviderRef } from '#app/models/transaction.server.ts'
import { recordDeclineReason } from '#app/models/transaction-decline.server.ts'
import { handleProviderNotification } from '#app/payments/notify.server.ts'
import { declineFromTestCard, TEST_CARDS } from '#app/domain/payment-failure.ts'
import { TEST_OUTCOMES, TEST_SIGNATURE_HEADER, testDecline, testNotification, type TestOutcome } from '#app/payments/test-provider.server.ts'
import { deliverTestNotification, slowEventIds } from '#app/payments/test-slow.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { formatMoney } from '#app/utils/money.ts'
import { notFound, requireSchool } from '#app/utils/request.server.ts'
import { readFormFields } from '#app/utils/validation.ts'

const REF = /^tp_[a-z0-9]{8,64}$/

async function readPayment({ context, params }: Pick<LoaderFunctionArgs, 'context' | 'params'>) {
  const tenant = requireSchool(context)
  const secret = context.cloudflare.env.TEST_PAYMENTS_SECRET
  const ref = params.ref ?? ''
  if (!testPaymentsAllowed(context.cloudflare.env) || !secret || !REF.test(ref)) notFound()
  const tx = await getTransactionByProviderRef(context.db, tenant.id, 'test', ref)
  if (!tx || !tx.integrationId) notFound()
  return { tenant, tx, secret, ref }
}

export async function loader(args: LoaderFunctionArgs) {
  const { tenant, tx } = await readPayment(args)
  return {
    amount: formatMoney(tx.totalAmount, tx.currency, tenant.language),
    product: tx.productTitle,
    school: tenant.name,
    status: tx.status,
    cards: TEST_CARDS.map((c) => ({ number: c.number, decline: c.decline })),
  }
}

const OutcomeSchema = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.enum([...TEST_OUTCOMES, 'slow']) }),
  // A card number as the card form sends it: digits, optionally grouped by spaces or dashes.
  z.object({ outcome: z.literal('card'), card: z.string().regex(/^\d[\d -]{10,22}\d$/).transform((v) => v.replace(/\D/g, '')).pipe(z.string().min(12).max(19)) }),
])

export async function action(args: ActionFunctionArgs) {
  const { context, request } = args
  const { tenant, tx, secret, ref } = await readPayment(args)
  // An unreadable body is an empty form: refused like any outcome not on the card list.
  const parsed = OutcomeSchema.safeParse((await readFormFields(request)) ?? {})
  if (!parsed.success) return data({ error: { key: 'payment.test_card.error' } }, { status: 422 })
  const origin = new URL(request.url).origin
  // Slow: PENDING now; the confirmation follows once the delay has passed (test-slow.server.ts).
  if (parsed.data.outcome === 'slow') {
    await deliverTestNotification(context, tenant.id, tx, origin, secret, ref, 'pending', slowEventIds(ref).started)
    return redirect(`/transaction/${tx.hash}/pending`, 303)
  }
  let outcome: TestOutcome
  let decline
  if (parsed.data.outcome === 'card') {
    decline = declineFromTestCard(parsed.data.card)
    outcome = decline === null ? 'succeeded' : decline === 'three_ds_failed' ? '3ds_failed' : 'failed'
  } else {
    outcome = parsed.data.outcome
    decline = testDecline(outcome)
  }
  // The provider's signed notification, through the same handler as /payments/test/{integration}/notify.
  const n = await testNotification(secret, ref, outcome, undefined, decline)
  await handleProviderNotification(
    context,
    tenant.id,
    'test',
    tx.integrationId!,
    new Request(`${origin}/payments/test/${tx.integrationId}/notify`, { method: 'POST', body: n.body, headers: { 'Content-Type': 'application/json', [TEST_SIGNATURE_HEADER]: n.signature } }),
  )
  // The settlement batch does not carry a reason yet (notify.server.ts): record it on the failed
  // transaction now, before the buyer sees the failure page. A no-op once the batch wrote it.
  if (decline) await recordDeclineReason(context.db, tenant.id, tx.id, decline)
  return redirect(`/transaction/${tx.hash}/pending`, 303)
}

export default function TestPaymentPage() {
  const d = useLoaderData<typeof loader>()
  const a = useActionData<typeof action>()
  const t = useT()
  return (
    <div className="mx-auto max-w-md space-y-6" data-test-payment>
      <PageTitle subtitle={t('checkout.test_provider.subtitle')}>{t('checkout.test_provider.title')}</PageTitle>
      <Card className="space-y-4 p-6">
        <p className="text-sm text-slate-600">{d.school}</p>
        <p className="text-lg font-semibold">{d.product}</p>
        <p className="text-2xl font-bold" data-amount>
          {d.amount}
        </p>
        <Form method="post" reloadDocument className="grid gap-2">
          <Button type="submit" name="outcome" value="succeeded">
            {t('checkout.test_provider.pay')}
          </Button>
          <Button type="submit" name="outcome" value="slow" variant="secondary">
            {t('checkout.test_provider.slow')}
          </Button>
          <Button type="submit" name="outcome" value="failed" variant="secondary">
            {t('checkout.test_provider.decline')}
          </Button>
          <Button type="submit" name="outcome" value="3ds_failed" variant="secondary">
            {t('checkout.test_provider.three_ds')}
          </Button>
        </Form>
      </Card>
      <Card className="p-6">
        <Form method="post" reloadDocument data-test-cards>
          <fieldset className="space-y-4">
            <legend className="text-lg font-semibold">{t('payment.test_card.legend')}</legend>
            <p className="text-sm text-slate-600">{t('payment.test_card.help')}</p>
            <SelectField
              label={t('payment.test_card.field')}
              name="card"
              error={a?.error}
              defaultValue={d.cards[0]?.number}
              options={d.cards.map((c) => {
                const number = c.number.replace(/(\d{4})(?=\d)/g, '$1 ')
                return { value: c.number, label: c.decline ? t('payment.test_card.declines', { number, reason: t(`payment.failure.${c.decline}`) }) : t('payment.test_card.pays', { number }) }
              })}
            />
            <Button type="submit" name="outcome" value="card">
              {t('payment.test_card.submit')}
            </Button>
          </fieldset>
        </Form>
      </Card>
    </div>
  )
}
