// /{slug}/checkout: the one-page checkout (issue 8 item 1, seed 000 §7, seed 001 §5). A plain form
// that works without JavaScript: price variant, seats (courses), an account for visitors (create
// one or log in, in the same submission), invoice details, shipping for physical products, promo
// code ("Apply" re-prices without ordering), order bump, terms and the withdrawal-waiver consent for
// digital content. The server prices the order (app/checkout/checkout.server.ts) and places it
// (app/checkout/place-order.server.ts); the page is app/checkout/components/checkout-page.tsx.
import { data, redirect, redirectDocument, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { CheckoutPage } from '#app/checkout/components/checkout-page.tsx'
import { checkoutPageData, loadCheckoutOffer } from '#app/checkout/checkout.server.ts'
import { applyPromo, placeOrder, type CheckoutAnswer } from '#app/checkout/place-order.server.ts'
import { getCurrentUserOrVerify } from '#app/auth/auth.server.ts'
import { notFound, requireSchool } from '#app/utils/request.server.ts'
import { readFormFields } from '#app/utils/validation.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: 'robots', content: 'noindex' }]

const noStore = { 'Cache-Control': 'private, no-store' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  const user = await getCurrentUserOrVerify(request, context)
  const offer = await loadCheckoutOffer(context, tenant, params.slug ?? '', user ? { id: user.id, role: user.role } : null)
  if (!offer) notFound()
  return data(await checkoutPageData(request, context, tenant, offer, user), { headers: noStore })
}

const answer = (body: CheckoutAnswer, status: number, cookie?: string | null) => {
  const headers = new Headers(noStore)
  if (cookie) headers.append('Set-Cookie', cookie)
  return data<CheckoutAnswer>(body, { status, headers })
}

/** `/payments/{provider}/{integrationId}/card/{hash}`, absolute or not. */
const HOSTED_CARD_PAGE = /^(?:https?:\/\/[^/]+)?\/payments\/[a-z0-9]+\/[\w-]+\/card\//

export async function action({ request, context, params }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  const user = await getCurrentUserOrVerify(request, context)
  const offer = await loadCheckoutOffer(context, tenant, params.slug ?? '', user ? { id: user.id, role: user.role } : null)
  if (!offer) notFound()
  const values = await readFormFields(request)
  if (!values) return answer({ errors: { form: { key: 'validation.invalid' } }, values: {} }, 400)
  // "Apply" (promo code) re-prices only, as a plain form post too; any other submission orders.
  const submission = { context, request, tenant, offer, user, values }
  const result = values.intent === 'apply_promo' ? await applyPromo(submission) : await placeOrder(submission)
  if (result.kind === 'redirect') {
    const init = { status: 303, headers: result.cookie ? { 'Set-Cookie': result.cookie } : undefined }
    // A provider's card page (issue 25) loads the provider's scripts under its own CSP: a whole-document load, never a client-side one.
    return HOSTED_CARD_PAGE.test(result.url) ? redirectDocument(result.url, init) : redirect(result.url, init)
  }
  // The form comes back with what was typed, never the password.
  const { kind: _kind, status, mode, cookie, ...body } = result
  const { password: _password, ...echo } = values
  return answer({ ...body, values: mode ? { ...echo, mode } : echo }, status, cookie)
}

export default function CheckoutRoute() {
  return <CheckoutPage data={useLoaderData<typeof loader>()} answer={useActionData<typeof action>()} />
}
