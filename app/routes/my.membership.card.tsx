// POST /my/membership/card {cypher, membership_id} (seed 000 widget 14, §5, §7, §8): a new card on
// file for the student's membership. The cypher (app/payments/card.ts) is opened with the card
// vault's private key, its origin must be this page's, and the card is validated again; only
// brand, last 4, expiry and a token are stored. Errors `{errors: {cypher|sale|membership}}`:
// 'Please check your card details.' (a field missing), 'Card data is not valid' (anything else
// wrong with the cypher), 'Card problem' (no card vault), membership state. Success: a redirect to
// /panel (scripts get `{ok, redirect}`).
// GET answers the vault's public key for the card form (JSON; the form encrypts with it).
// POST {intent: 'provider', membership_id} (issue 25): a membership whose card the school's
// provider keeps goes to that provider's fields or page (app/membership/card-update.server.ts).
import { redirectDocument, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { startCardUpdate } from '#app/membership/card-update.server.ts'
import { z } from 'zod'
import type { ShardDb } from '#app/db/client.server.ts'
import { backToPanel, jsonErrors } from '#app/membership/answers.server.ts'
import { cardUpdatable, getMembershipForUser, listMembershipsForUser, testCardToken, updateMembershipCard } from '#app/models/membership.server.ts'
import { CYPHER_MAX_LENGTH } from '#app/payments/card.ts'
import { cardVaultPublicKey, openCardCypher } from '#app/payments/card-vault.server.ts'
import { readBody } from '#app/storefront/search.server.ts'
import { requireUser } from '#app/auth/auth.server.ts'
import { noStoreJson } from '#app/utils/responses.server.ts'
import { getLocale, getT, notFound, requireSchool } from '#app/utils/request.server.ts'
import { isDataRequest } from '#app/utils/security.server.ts'

const CardSchema = z.object({
  membership_id: z.string().trim().max(64).optional(),
  // Longer than any real cypher is refused as 'Card data is not valid' (openCardCypher), not as a missing membership.
  cypher: z.string().trim().max(CYPHER_MAX_LENGTH * 4).optional(),
})

/** The seed's call carries only the cypher: the student's one membership whose card can change. */
async function onlyUpdatable(db: ShardDb, tenantId: string, userId: string) {
  const open = (await listMembershipsForUser(db, tenantId, userId)).filter(cardUpdatable)
  return open.length === 1 ? open[0] : undefined
}

type VaultEnv = { ENVIRONMENT: string; CARD_VAULT_KEY?: string }

async function changeAtProvider(request: Request, context: AppLoadContext, tenantId: string, user: { id: string; email: string; name: string }, membershipId: string, script: boolean) {
  const membership = /^[A-Za-z0-9_-]{1,64}$/.test(membershipId) ? await getMembershipForUser(context.db, tenantId, user.id, membershipId) : undefined
  if (!membership) notFound()
  const started = await startCardUpdate(context, tenantId, user, membership, new URL(request.url).origin, getLocale(request, context))
  if (!started.ok) {
    if (script) return jsonErrors({ membership: [getT(request, context)(`cards.update.error.${started.problem}`)] }, started.problem === 'unavailable' ? 503 : 409)
    return backToPanel({ membership_error: `card_${started.problem}`, membership: membership.id }, membership.id)
  }
  if (script) return noStoreJson({ ok: true, redirect: started.url })
  // The fields page loads the provider's scripts under its own CSP: a whole-document load.
  return redirectDocument(started.url, 303)
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  requireSchool(context)
  await requireUser(request, context)
  return noStoreJson({ publicKey: cardVaultPublicKey(context.cloudflare.env as VaultEnv) })
}

export async function action({ request, context }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  if (request.method !== 'POST') return noStoreJson({ message: 'Method Not Allowed' }, 405)
  const user = await requireUser(request, context)
  const script = isDataRequest(request)
  const t = getT(request, context)
  const body = (await readBody(request)) ?? {}
  // Issue 25: a card the school's provider keeps is changed through that provider (its fields or its page).
  if (body.intent === 'provider') return changeAtProvider(request, context, tenant.id, user, String(body.membership_id ?? ''), script)
  const parsed = CardSchema.safeParse(body)
  const data = parsed.success ? parsed.data : {}
  const membership = data.membership_id ? await getMembershipForUser(context.db, tenant.id, user.id, data.membership_id) : await onlyUpdatable(context.db, tenant.id, user.id)
  if (!membership) notFound()
  const fail = (field: 'cypher' | 'sale' | 'membership', key: string, code: string, status = 422) =>
    script ? jsonErrors({ [field]: [t(key)] }, status) : backToPanel({ membership_error: code, membership: membership.id }, membership.id)

  if (!parsed.success) return fail('cypher', 'membership.card.error.cypher', 'card_cypher')
  if (!cardUpdatable(membership)) {
    return membership.providerSubscriptionId
      ? fail('membership', 'membership.card.error.membership_provider', 'card_provider', 409)
      : fail('membership', 'membership.card.error.membership_state', 'card_state', 409)
  }
  // Only the built-in test provider keeps our own card token; a real provider's card needs its tokenizer.
  if (membership.provider && membership.provider !== 'test') return fail('membership', 'membership.card.error.membership_provider', 'card_provider', 409)
  if (!data.cypher) return fail('cypher', 'membership.card.error.fields', 'card_fields')
  const opened = await openCardCypher(context.cloudflare.env as VaultEnv, data.cypher, new URL(request.url).origin)
  if (!opened.ok) {
    if (opened.problem === 'unavailable') return fail('sale', 'membership.card.error.problem', 'card_problem', 503)
    if (opened.problem === 'incomplete') return fail('cypher', 'membership.card.error.fields', 'card_fields')
    return fail('cypher', 'membership.card.error.cypher', 'card_cypher')
  }
  const { card } = opened
  const stored = await updateMembershipCard(context.db, tenant.id, user.id, membership.id, {
    brand: card.brand,
    last4: card.last4,
    expMonth: card.expMonth,
    expYear: card.expYear,
    token: testCardToken(card.number),
  })
  if (!stored) return fail('membership', 'membership.card.error.membership_state', 'card_state', 409)
  if (!script) return backToPanel({ membership_notice: 'card_updated', membership: membership.id }, membership.id)
  return noStoreJson({ ok: true, redirect: '/panel' })
}
