// /pay/test/{ref}: the built-in test provider's hosted page (development only, ADR 019). The buyer
// picks an outcome; the page sends the provider's signed notification to the school's notify
// route code path (a worker cannot fetch its own host) and returns the buyer to the pending page.
// "Slow" confirms seconds later (app/payments/test-slow.server.ts), so the pending page has to wait for it.
import { testPaymentsAllowed } from '#app/payments/payment-mode.server.ts'
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Form, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { Button, Card, PageTitle } from '#app/components/ui.tsx'
import { getTransactionByProviderRef } from '#app/models/transaction.server.ts'
import { TEST_OUTCOMES } from '#app/payments/test-provider.server.ts'
import { deliverTestNotification, slowEventIds } from '#app/payments/test-slow.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { formatMoney } from '#app/utils/money.ts'
import { notFound, requireSchool } from '#app/utils/request.server.ts'
import { formToObject } from '#app/utils/validation.ts'

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
  return { amount: formatMoney(tx.totalAmount, tx.currency, tenant.language), product: tx.productTitle, school: tenant.name, status: tx.status }
}

const OutcomeSchema = z.object({ outcome: z.enum([...TEST_OUTCOMES, 'slow']) })

export async function action(args: ActionFunctionArgs) {
  const { context, request } = args
  const { tenant, tx, secret, ref } = await readPayment(args)
  const parsed = OutcomeSchema.safeParse(formToObject(await request.formData()))
  if (!parsed.success) return new Response(null, { status: 422 })
  const outcome = parsed.data.outcome === 'slow' ? 'succeeded' : parsed.data.outcome
  const origin = new URL(request.url).origin
  // Slow: PENDING now; the confirmation follows once the delay has passed (test-slow.server.ts).
  if (parsed.data.outcome === 'slow') await deliverTestNotification(context, tenant.id, tx, origin, secret, ref, 'pending', slowEventIds(ref).started)
  else await deliverTestNotification(context, tenant.id, tx, origin, secret, ref, outcome)
  return redirect(`/transaction/${tx.hash}/pending`, 303)
}

export default function TestPaymentPage() {
  const d = useLoaderData<typeof loader>()
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
        <Form method="post" className="grid gap-2">
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
    </div>
  )
}
