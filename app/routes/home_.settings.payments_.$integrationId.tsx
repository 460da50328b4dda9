// POST /home/settings/payments/{id} (issue 8 item 3): enable, disable or delete one of this
// school's payment integrations. The id is looked up in this school first: another school's is 404.
// Where test payments are not allowed (issue 18 §2), an integration with test credentials (the test
// provider, PayU sandbox, a Stripe test key) cannot be enabled: checkout would not offer it anyway.
import { audit, staffActor } from '#app/audit/audit.server.ts'
import { redirect, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { z } from 'zod'
import { deleteIntegration, getIntegration, setIntegrationEnabled, type PaymentIntegration } from '#app/models/payment-integration.server.ts'
import { testPaymentsAllowed } from '#app/payments/payment-mode.server.ts'
import { integrationTakesTestPayments } from '#app/payments/registry.server.ts'
import { requireStaff, staffAction, type IntentContext } from '#app/auth/staff.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { notFound, requireSchool } from '#app/utils/request.server.ts'

const ConfirmSchema = z.object({ confirm: z.string().max(20).optional() })

const SETTINGS = '/home/settings/payments'
const back = (query: Record<string, string>) => redirect(`${SETTINGS}?${new URLSearchParams(query)}`, 303)
const done = (request: Request, outcome: 'deleted' | 'enabled' | 'disabled') => redirectWithFlash(request, SETTINGS, { done: outcome, message: `payments.done.${outcome}` }, { status: 303 })

const loadIntegration = async (tenant: { id: string }, { context, params }: Pick<LoaderFunctionArgs, 'context' | 'params'>) => (await getIntegration(context.db, tenant.id, params.integrationId ?? '')) ?? notFound()

/** No page of its own: the list shows every integration. */
export async function loader(args: LoaderFunctionArgs) {
  await loadIntegration(requireSchool(args.context), args)
  await requireStaff(args)
  return redirect(SETTINGS)
}

async function setEnabled(enabled: boolean, { tenant, request, context, loaded: integration }: IntentContext<PaymentIntegration>) {
  const env = context.cloudflare.env
  if (enabled && !testPaymentsAllowed(env) && (await integrationTakesTestPayments(env, integration))) return back({ error: 'payments.error.test_mode_enable' })
  if (!(await setIntegrationEnabled(context.db, tenant.id, integration.id, enabled))) notFound()
  return done(request, enabled ? 'enabled' : 'disabled')
}

export const action = staffAction({
  load: loadIntegration,
  intents: (intent) => ({
    delete: intent(ConfirmSchema, async (input, { tenant, user, request, context, loaded: integration }) => {
      // Seed 001 §5: deletion requires typing DELETE.
      if (input.confirm?.trim() !== 'DELETE') return back({ error: 'payments.error.confirm_delete' })
      // A concurrent delete may have won: still 404 for this request's answer.
      if (!(await deleteIntegration(context.db, tenant.id, integration.id))) notFound()
      await audit(context, request, {
        tenantId: tenant.id,
        actor: staffActor(user),
        action: 'payment_integration.delete',
        target: integration.provider,
        before: { provider: integration.provider, currency: integration.currency, account: integration.publicRef },
      })
      return done(request, 'deleted')
    }),
    enable: intent(ConfirmSchema, async (_input, ctx) => setEnabled(true, ctx)),
    disable: intent(ConfirmSchema, async (_input, ctx) => setEnabled(false, ctx)),
  }),
})
