// POST /{slug}/onepagecheckoutregister (seed 000 §7 checkout family): the same submission as /{slug}/checkout.
// A 307 keeps the method and the form body, so the one checkout action answers it (and its field
// errors render on the checkout page); a GET goes to the page.
import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { checkoutAlias } from '#app/checkout/aliases.server.ts'

export const loader = ({ request, context, params }: LoaderFunctionArgs) => checkoutAlias(request, context, params.slug, 303)

export const action = ({ request, context, params }: ActionFunctionArgs) => checkoutAlias(request, context, params.slug, 307)

