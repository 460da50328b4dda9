// The checkout's "Fill from the register" (issue 25): a tax number → the company's name and address.
// A NIP (or PL + NIP) asks GUS BIR 1.1 and, only when GUS cannot answer, VIES; another EU VAT
// number asks VIES. Answers are cached per number (found 30 days, not found 1 day); a register
// that cannot answer is never cached, and the buyer just types the fields (nothing here blocks
// the order). Register calls are rate-limited per IP (ADR 024 quota counters) — cache hits and
// checksum refusals cost the registers nothing and are not counted.
import { PLATFORM_SCOPE, quotaSecondsLeft, takeQuotaTurn, type ThrottleDbs, type QuotaPolicy } from '#app/models/login-throttle.server.ts'
import { getCachedCompanyLookup, saveCompanyLookup } from '#app/models/company-lookup.server.ts'
import { providerContext } from '#app/payments/providers/provider-context.server.ts'
import type { Env } from '#app/utils/env.server.ts'
import { gusApiKey, gusFindByNip } from './gus.server.ts'
import { REGISTER_TIMEOUT_MS, RegisterUnavailableError, type RegisterAnswer, type RegisterCompany } from './registers.ts'
import { parseTaxId, taxIdKey } from './tax-id.ts'
import { viesCheckVat } from './vies.server.ts'

/** One IP: 20 register lookups in 10 minutes (a buyer needs one or two; GUS keys have quotas). */
export const COMPANY_LOOKUP_IP_POLICY: QuotaPolicy = { max: 20, windowMs: 10 * 60_000 }
export const companyLookupThrottleKey = (ip: string) => `company-lookup-ip|${ip}`

export type CompanyLookupFailure = 'checksum' | 'not_found' | 'unavailable'
export type CompanyLookupResult = { ok: true; company: RegisterCompany; source: 'gus' | 'vies' | 'cache' } | { ok: false; reason: CompanyLookupFailure; retryAfter?: number }

export type CompanyLookupInput = { nip?: string | null; vat?: string | null }

/** The cache and the per-IP limit are platform-wide: both in the control plane (ADR 033). */
type Deps = { dbs: ThrottleDbs; env: Env; ip: string; now?: number }

function logUnavailable(error: unknown) {
  if (!(error instanceof RegisterUnavailableError)) throw error
  console.warn(`company lookup: ${error.message}`)
}

async function askRegisters(env: Env, query: ReturnType<typeof parseTaxId>): Promise<{ answer: RegisterAnswer; source: 'gus' | 'vies' } | null> {
  if (query.kind === 'invalid') return null
  if (query.kind === 'vat') {
    try {
      return { answer: await viesCheckVat(providerContext(env, 'vies'), query.country, query.number, AbortSignal.timeout(REGISTER_TIMEOUT_MS)), source: 'vies' }
    } catch (error) {
      logUnavailable(error)
      return null
    }
  }
  const key = gusApiKey(env as Env & { GUS_API_KEY?: string })
  if (key) {
    try {
      return { answer: await gusFindByNip(providerContext(env, 'gus'), key, query.nip, AbortSignal.timeout(REGISTER_TIMEOUT_MS)), source: 'gus' }
    } catch (error) {
      logUnavailable(error)
    }
  } else {
    console.warn('company lookup: GUS_API_KEY is not set; asking VIES only')
  }
  // GUS could not answer: VIES knows Polish VAT payers. Its "not found" proves nothing about GUS's
  // register (a company need not be a VAT payer), so only a company it finds is used and cached.
  try {
    const answer = await viesCheckVat(providerContext(env, 'vies'), 'PL', query.nip, AbortSignal.timeout(REGISTER_TIMEOUT_MS))
    return answer.found ? { answer, source: 'vies' } : null
  } catch (error) {
    logUnavailable(error)
    return null
  }
}

export async function lookupCompany({ dbs, env, ip, now = Date.now() }: Deps, input: CompanyLookupInput): Promise<CompanyLookupResult> {
  const query = parseTaxId(input.nip ?? input.vat ?? '')
  // `?nip=` is a Polish NIP only; `?vat=` takes any EU VAT number (PL ones are NIPs).
  if (query.kind === 'invalid' || (input.nip != null && query.kind !== 'nip')) return { ok: false, reason: 'checksum' }
  const key = taxIdKey(query)
  const cached = await getCachedCompanyLookup(dbs.control, key, now)
  if (cached) return cached.found ? { ok: true, company: cached.company, source: 'cache' } : { ok: false, reason: 'not_found' }

  const throttleKey = companyLookupThrottleKey(ip)
  if (!(await takeQuotaTurn(dbs, PLATFORM_SCOPE, throttleKey, COMPANY_LOOKUP_IP_POLICY, now))) {
    return { ok: false, reason: 'unavailable', retryAfter: Math.max(1, await quotaSecondsLeft(dbs, PLATFORM_SCOPE, throttleKey, COMPANY_LOOKUP_IP_POLICY, now)) }
  }
  const asked = await askRegisters(env, query)
  if (!asked) return { ok: false, reason: 'unavailable' }
  await saveCompanyLookup(dbs.control, key, asked.answer, now)
  return asked.answer.found ? { ok: true, company: asked.answer.company, source: asked.source } : { ok: false, reason: 'not_found' }
}
