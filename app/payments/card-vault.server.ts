// The card vault (seed 000 §3 "Card data", §5; issue 8 item 6): the RSA-OAEP key pair whose public
// half the card form encrypts with (app/payments/card.ts) and whose private half opens the cypher
// here. The browser never posts a raw card number to our forms; the server decrypts, checks the
// origin sealed inside against the request's own, validates the card again with card-validator,
// and keeps only brand, last 4, expiry and a token (app/models/membership.server.ts).
//
// Key: one pair per deployment, in the CARD_VAULT_KEY variable (the private key as an RSA JWK
// JSON, 2048-bit; a secret in production: `wrangler secret put CARD_VAULT_KEY --env production`).
// The school is bound by the origin inside the cypher, so one key serves every school. In
// development and tests without the variable, the fixed development key below is used; in
// production without it the card form is unavailable (never a key anyone could read here).
import { z } from 'zod'
import { isDevelopment, type Env } from '#app/utils/env.server.ts'
import { cardComplete, cardStates, cardValid, CYPHER_MAX_LENGTH, detectBrand, fromB64url, OAEP, type CardFields } from './card.ts'

/** Development and tests only: committed on purpose like the other development values. */
const DEVELOPMENT_KEY: JsonWebKey = {"kty": "RSA", "n": "kuRwl6gERzgPgs-b9I9gsjwg-bqM9kpxEDC0ZHiodwUBAEo4ahk3GaGSo7BqC3DKUIdb2mwXa_D0TRy_Ji_qxMk_dGq7CJ0mKORNZX71yO7Uqiyy2tkSbLqhAjMgVfdkm-rrU5sW05f8JG-GbvZSbiB-RALVZJIPHuI6yguhtV_gB9OaKQM_6R1bsNztcaRiZ-E8zd7uB5-ZHL9EqrwXCjtuSjOyZgSrGW3TxRocqfyjR669CTwE08wavgr0SHQEN8MYk6v_9z7PikKOfF2vidndMKmScha0pO8nzbKOg1hZCP9qRcNv8wr1AuprusgFyzB5_o1MjbutOpmgdL0gOQ", "e": "AQAB", "d": "HxguYVwWs8DBP86U09s5--DQliyQRF6Tunqk5RPJjZBImvgbIxJ9YHacZPwmJo_Us-FDZ2Q0PQw_msc4C2xfRRLY1Nr3BqbFeiiB3bdXbhZofDGEFuGWjd-fz6hk8u2wpXTAJe2Rkm781_Wnvnt0DY3hTKJQ674jZ0U6bqSxsYPs9Sj78hu-jU-1EUlyhCBqx5VKZ1Tz-ER4ePyjh7GZE6S72uiL2QNKtVPly5fAANEtCDwmfLrun8nPbmRdXx3Z5-eHY_PueVkgMCt0EmFms6I42pV5BtoGceE3-Ro7bytVr46pa5sbMsxS8LX0z2lqRbFvutUtA6JI2SdjKurMNQ", "p": "x608yZgsuhbCB-lvWNiulqPnyRc58cktqh9r8QvlXq5lfl5iC96pG74QLNhDFf4VQ8ImRZgIDXgPUrBGFRycr05zAAYDa3l8wxj5k-miLdtsZf1xULAtgrYHAG5lKuenM2VLgcqOeFALolDOX_S-DT9v5H9an0SrpD3taSDjSD8", "q": "vFOda0GpUaKh2RpUED2_Zd4Q2c2TOlWmo_NlSlnSXpR0DX1Z6atWsYoBDVSz0zH_zs4DdjCJGjP2hGakmgTA2vpM17y1P9wwoNGLCVa21h9FEBG4qSmnQbGmE2_ekXmmdyFhZ5mNdB-HGxiLcBPxnl0SP-gIJTJ9LSWiX-s0OYc", "dp": "mxS9ZYU_F7idMi_nPwXrcywR1WiopFUvljWZTDmFB6hDQ4Zid_2TMezH-0xrriUMtvePafXOK0fX_szRYYw7VRyEzLve5BYTBCPdkzedsif9ZKkW3Sg38JEXlwomoNASWCSQJFoBlQf2QTapUnVvNjLS4JDY_WIEPSerwD6-x1k", "dq": "J7IgPllqzTBQmSh5i6rYSyqRtrckT2l6ZJiLQy7HrvPvumAvsZdSAL4sFplCBkRFvVujUyhL3eASGDpie6yA0idsRxUZx0osXdmNSvyiMWQJ9Kcnm1CSVsCRVwt_iH5x3i6FD4dIT6_NlKKJ0agCh_TqQdowzVZlGD0Uis9TBMU", "qi": "I5dtYvfkGCiHmhfmWGyhXLs5Bf2pkvs2mpn_MenkGMzmCyEhvEukuSddeEfofjg3kSnl0TSFL7JXUUKwFGmmS1wqIMV46ZMCQM88tw5270MbTfuK31Zfy_a1TKX6GX7zW67R9eAOua_csw_giLzCGs2bywsYkMcUW3j28qChPMM"}

type VaultEnv = Pick<Env, 'ENVIRONMENT'> & { CARD_VAULT_KEY?: string }

function privateJwk(env: VaultEnv): JsonWebKey | null {
  if (env.CARD_VAULT_KEY) {
    try {
      const jwk = JSON.parse(env.CARD_VAULT_KEY) as JsonWebKey
      return jwk.kty === 'RSA' && jwk.d ? jwk : null
    } catch {
      return null
    }
  }
  // The public development key only where the deployment says it is development or test — never by default (issue 19 §7).
  return isDevelopment(env) ? DEVELOPMENT_KEY : null
}

/** The public half the card form encrypts with; null when this deployment has no vault key. */
export function cardVaultPublicKey(env: VaultEnv): JsonWebKey | null {
  const jwk = privateJwk(env)
  return jwk ? { kty: 'RSA', n: jwk.n, e: jwk.e, alg: 'RSA-OAEP-256' } : null
}

const keys = new Map<string, Promise<CryptoKey>>()
function privateKey(jwk: JsonWebKey) {
  const id = jwk.n ?? ''
  let key = keys.get(id)
  if (!key) {
    key = crypto.subtle.importKey('jwk', { kty: 'RSA', n: jwk.n, e: jwk.e, d: jwk.d, p: jwk.p, q: jwk.q, dp: jwk.dp, dq: jwk.dq, qi: jwk.qi, alg: 'RSA-OAEP-256', ext: false }, OAEP, false, ['decrypt'])
    keys.set(id, key)
  }
  return key
}

const PayloadSchema = z.object({
  cardNumber: z.string().max(32),
  cardMonth: z.string().max(4),
  cardYear: z.string().max(6),
  cardCvv: z.string().max(8),
  origin: z.string().max(300),
})

export type OpenedCard = { number: string; brand: string; last4: string; expMonth: number; expYear: number }
/** invalid: not ours, altered, another origin, or card data that cannot be right ('Card data is not valid'); incomplete: a field is missing ('Please check your card details.'). */
export type OpenCardResult = { ok: true; card: OpenedCard } | { ok: false; problem: 'invalid' | 'incomplete' | 'unavailable' }

export async function openCardCypher(env: VaultEnv, cypher: string, expectedOrigin: string, now = Date.now()): Promise<OpenCardResult> {
  const jwk = privateJwk(env)
  if (!jwk) return { ok: false, problem: 'unavailable' }
  const parts = cypher.length <= CYPHER_MAX_LENGTH ? /^v1\.([\w-]+)\.([\w-]{16})\.([\w-]+)$/.exec(cypher) : null
  if (!parts) return { ok: false, problem: 'invalid' }
  let payload: z.infer<typeof PayloadSchema>
  try {
    const raw = await crypto.subtle.decrypt(OAEP, await privateKey(jwk), fromB64url(parts[1]!))
    const aes = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['decrypt'])
    const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: fromB64url(parts[2]!) }, aes, fromB64url(parts[3]!))
    const parsed = PayloadSchema.safeParse(JSON.parse(new TextDecoder().decode(plain)))
    if (!parsed.success) return { ok: false, problem: 'invalid' }
    payload = parsed.data
  } catch {
    return { ok: false, problem: 'invalid' }
  }
  // Made on another page (another school, another site): refused like an altered cypher.
  if (payload.origin !== expectedOrigin) return { ok: false, problem: 'invalid' }
  const fields: CardFields = { cardNumber: payload.cardNumber.replace(/\D/g, ''), cardMonth: payload.cardMonth, cardYear: payload.cardYear, cardCvv: payload.cardCvv }
  if (!cardComplete(fields)) return { ok: false, problem: 'incomplete' }
  if (!cardValid(cardStates(fields, now))) return { ok: false, problem: 'invalid' }
  return {
    ok: true,
    card: { number: fields.cardNumber, brand: detectBrand(fields.cardNumber).type, last4: fields.cardNumber.slice(-4), expMonth: Number(fields.cardMonth), expYear: Number(fields.cardYear) },
  }
}
