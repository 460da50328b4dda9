// Affiliate partners at the model and use-case level (issue 24 item 5): the ?ref= visit, the
// recommendation cookie the checkout trusts, the commission written with the grant (percent,
// fixed, self-referral, once), its reversal on refund, "Mark paid" and the stats-link token.
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createPartner, markPartnerPaid, partnerFigures, PartnerFormSchema, setPartnerActive, type PartnerInput } from '#app/models/affiliate.server.ts'
import { createTransaction, recordRefund, settleTransaction } from '#app/models/transaction.server.ts'
import { parseWith } from '#app/utils/validation.ts'
import { createTestSchool, db } from '#tests/factories.ts'
import { readRecommendation, recommendedPartner } from './recommendation.server.ts'
import { referralVisit } from './referral-visit.server.ts'
import { signPartnerStatsToken, verifyPartnerStatsToken } from './stats-token.server.ts'

const DAY = 86_400_000
const KEY = 'Y291cnNlZnJvbnQtZGV2LWludGVncmF0aW9ucy1rZXk='
const base: PartnerInput = { name: 'Anna Partner', email: 'anna@partner.test', code: '', commissionKind: 'percent', commissionValue: 10, cookieDays: 30 }

async function partner(tenantId: string, input: Partial<PartnerInput> = {}) {
  const created = await createPartner(db(), tenantId, { ...base, code: `P${crypto.randomUUID().slice(0, 8)}`, ...input })
  if (!created.ok) throw new Error(created.error)
  return created.partner
}

async function sale(tenantId: string, opts: { partnerId: string | null; total?: number; buyerEmail?: string; currency?: string; membershipId?: string }) {
  return createTransaction(db(), tenantId, {
    userId: null,
    productId: null,
    productKind: 'course',
    productTitle: 'Course',
    quantity: 1,
    currency: opts.currency ?? 'USD',
    unitAmount: opts.total ?? 12345,
    totalAmount: opts.total ?? 12345,
    buyer: JSON.stringify({ name: 'Buyer', email: opts.buyerEmail ?? 'buyer@example.com' }),
    termsAcceptedAt: Date.now(),
    checkoutPath: '/course/checkout',
    affiliatePartnerId: opts.partnerId,
    membershipId: opts.membershipId ?? null,
  })
}

const commissions = async (tenantId: string) =>
  (
    await env.DB_SHARD_0.prepare('SELECT partner_id, transaction_id, amount, sale_amount, status, payout_id, reversed_at FROM affiliate_commissions WHERE tenant_id = ? ORDER BY created_at')
      .bind(tenantId)
      .all<Record<string, unknown>>()
  ).results

const cookieRequest = (value: string) => new Request('http://school.localhost/course/checkout', { headers: { Cookie: `recommendation=${value}` } })

describe('the ?ref= visit', () => {
  it("an active partner's code: 302 to the same address without ref (other parameters kept) and the cookie; last click wins", async () => {
    const school = await createTestSchool()
    const anna = await partner(school.tenantId, { code: 'ANNA', cookieDays: 7 })
    const bob = await partner(school.tenantId, { code: 'BOB-1' })
    const now = Date.UTC(2026, 0, 1)
    const res = await referralVisit(new Request('http://s.localhost/my-course?utm_source=x&ref=anna&b=2'), db(), school.tenantId, now)
    expect(res!.status).toBe(302)
    expect(res!.headers.get('Location')).toBe('/my-course?utm_source=x&b=2')
    const cookie = res!.headers.get('Set-Cookie')!
    expect(cookie).toContain(`recommendation=${anna.id}.${now + 7 * DAY}`)
    expect(cookie).toMatch(/Path=\//)
    expect(cookie).toMatch(/Max-Age=604800/)
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Lax/)
    expect(cookie).not.toMatch(/Secure/)
    const https = await referralVisit(new Request('https://s.example.com/?ref=BOB-1'), db(), school.tenantId, now)
    expect(https!.headers.get('Location')).toBe('/')
    expect(https!.headers.get('Set-Cookie')).toContain(`recommendation=${bob.id}.`)
    expect(https!.headers.get('Set-Cookie')).toMatch(/Secure/)
  })

  it("unknown, inactive and another school's codes answer 302 without a cookie; no ref or not a GET is null", async () => {
    const school = await createTestSchool()
    const other = await createTestSchool()
    const inactive = await partner(school.tenantId, { code: 'SLEEPY' })
    await setPartnerActive(db(), school.tenantId, inactive.id, false)
    await partner(other.tenantId, { code: 'ELSEWHERE' })
    for (const code of ['NOPE', 'SLEEPY', 'ELSEWHERE', '', 'x'.repeat(500), '<script>']) {
      const res = await referralVisit(new Request(`http://s.localhost/p?ref=${encodeURIComponent(code)}`), db(), school.tenantId)
      expect(res!.status, code).toBe(302)
      expect(res!.headers.get('Location')).toBe('/p')
      expect(res!.headers.get('Set-Cookie'), code).toBeNull()
    }
    expect(await referralVisit(new Request('http://s.localhost/p?reference=ANNA'), db(), school.tenantId)).toBeNull()
    expect(await referralVisit(new Request('http://s.localhost/p?ref=SLEEPY', { method: 'POST' }), db(), school.tenantId)).toBeNull()
    // A path of two slashes never becomes a protocol-relative redirect off the school.
    expect((await referralVisit(new Request('http://s.localhost//evil.test/x?ref=NOPE'), db(), school.tenantId))!.headers.get('Location')).toBe('/evil.test/x')
  })
})

describe('the recommendation cookie at checkout', () => {
  it('counts only a well-formed, unexpired cookie naming an active partner of this school', async () => {
    const school = await createTestSchool()
    const other = await createTestSchool()
    const mine = await partner(school.tenantId)
    const theirs = await partner(other.tenantId)
    const now = Date.now()
    expect(await recommendedPartner(db(), school.tenantId, cookieRequest(`${mine.id}.${now + DAY}`), now)).toBe(mine.id)
    expect(await recommendedPartner(db(), school.tenantId, cookieRequest(`${mine.id}.${now - 1}`), now)).toBeNull()
    expect(await recommendedPartner(db(), school.tenantId, cookieRequest(`${theirs.id}.${now + DAY}`), now)).toBeNull()
    expect(await recommendedPartner(db(), school.tenantId, cookieRequest(`${mine.id}`), now)).toBeNull()
    expect(await recommendedPartner(db(), school.tenantId, cookieRequest(`${mine.id}.${now + 400 * DAY}`), now)).toBeNull()
    expect(readRecommendation(cookieRequest(`'; drop table x.${now + DAY}`), now)).toBeNull()
    await setPartnerActive(db(), school.tenantId, mine.id, false)
    expect(await recommendedPartner(db(), school.tenantId, cookieRequest(`${mine.id}.${now + DAY}`), now)).toBeNull()
  })
})

describe('commissions', () => {
  it('percent (floored) and fixed (never more than the sale), once per sale however often it settles', async () => {
    const school = await createTestSchool()
    const pct = await partner(school.tenantId, { commissionKind: 'percent', commissionValue: 15 })
    const fixed = await partner(school.tenantId, { commissionKind: 'fixed', commissionValue: 5000 })
    const a = await sale(school.tenantId, { partnerId: pct.id, total: 12345 })
    const b = await sale(school.tenantId, { partnerId: fixed.id, total: 9900 })
    const c = await sale(school.tenantId, { partnerId: fixed.id, total: 3000 })
    for (const tx of [a, b, c]) {
      for (let i = 0; i < 3; i++)
        await settleTransaction(db(), school.tenantId, tx.id, { event: { provider: 'test', eventKey: `${tx.id}:${i}`, providerStatus: 'succeeded', status: 'completed' }, status: 'completed' })
    }
    const rows = await commissions(school.tenantId)
    expect(rows.map((r) => [r.transaction_id, r.amount, r.sale_amount, r.status])).toEqual([
      [a.id, 1851, 12345, 'accrued'],
      [b.id, 5000, 9900, 'accrued'],
      [c.id, 3000, 3000, 'accrued'],
    ])
  })

  it('self-referral records 0; a sale without a partner, a free order and a membership renewal record nothing', async () => {
    const school = await createTestSchool()
    const p = await partner(school.tenantId, { email: 'Self@Partner.test' })
    const self = await sale(school.tenantId, { partnerId: p.id, buyerEmail: 'self@PARTNER.test ' })
    const none = await sale(school.tenantId, { partnerId: null })
    const free = await sale(school.tenantId, { partnerId: p.id, total: 0 })
    const renewal = await sale(school.tenantId, { partnerId: p.id, membershipId: 'somemembership' })
    for (const tx of [self, none, free, renewal]) await settleTransaction(db(), school.tenantId, tx.id, { event: null, status: 'completed' })
    expect((await commissions(school.tenantId)).map((r) => [r.transaction_id, r.amount, r.status])).toEqual([[self.id, 0, 'self_referral']])
  })

  it('a refund reverses an unpaid commission; a paid one is clawed back by the next payout; mark paid settles per currency in one go', async () => {
    const school = await createTestSchool()
    const p = await partner(school.tenantId, { commissionKind: 'percent', commissionValue: 10 })
    const settle = (id: string) => settleTransaction(db(), school.tenantId, id, { event: null, status: 'completed' })
    const one = await sale(school.tenantId, { partnerId: p.id, total: 10000 })
    const two = await sale(school.tenantId, { partnerId: p.id, total: 20000 })
    const pln = await sale(school.tenantId, { partnerId: p.id, total: 5000, currency: 'PLN' })
    for (const tx of [one, two, pln]) await settle(tx.id)
    // Refund before payout: reversed.
    expect(await recordRefund(db(), school.tenantId, { ...one, status: 'completed' }, { provider: 'test', refundRef: 'r1', providerStatus: 'refunded' })).toBe(true)
    let usd = (await partnerFigures(db(), school.tenantId, p.id)).find((f) => f.currency === 'USD')!
    expect(usd).toMatchObject({ sales: 2, accrued: 2000, reversed: 1000, paid: 0, owed: 2000 })
    // Mark USD paid: one payout of 20.00, the PLN commission untouched.
    const payout = await markPartnerPaid(db(), school.tenantId, p.id, 'USD')
    expect(payout).toMatchObject({ amount: 2000 })
    expect(await markPartnerPaid(db(), school.tenantId, p.id, 'USD')).toBeNull()
    const figures = await partnerFigures(db(), school.tenantId, p.id)
    expect(figures.find((f) => f.currency === 'USD')).toMatchObject({ paid: 2000, owed: 0 })
    expect(figures.find((f) => f.currency === 'PLN')).toMatchObject({ owed: 500, paid: 0 })
    // Refund after payout: stays, owed goes negative ("to claw back"); the next payout nets it.
    expect(await recordRefund(db(), school.tenantId, { ...two, status: 'completed' }, { provider: 'test', refundRef: 'r2', providerStatus: 'refunded' })).toBe(true)
    usd = (await partnerFigures(db(), school.tenantId, p.id)).find((f) => f.currency === 'USD')!
    expect(usd.owed).toBe(-2000)
    const three = await sale(school.tenantId, { partnerId: p.id, total: 30000 })
    await settle(three.id)
    expect((await partnerFigures(db(), school.tenantId, p.id)).find((f) => f.currency === 'USD')!.owed).toBe(1000)
    expect(await markPartnerPaid(db(), school.tenantId, p.id, 'USD')).toMatchObject({ amount: 1000 })
    expect((await partnerFigures(db(), school.tenantId, p.id)).find((f) => f.currency === 'USD')).toMatchObject({ owed: 0, paid: 3000 })
    const rows = await commissions(school.tenantId)
    expect(rows.find((r) => r.transaction_id === two.id)).toMatchObject({ status: 'reversed' })
    expect(rows.find((r) => r.transaction_id === three.id)!.payout_id).not.toBeNull()
  })
})

describe('the partner form', () => {
  it('normalises the code, refuses bad values with field errors', () => {
    const ok = parseWith(PartnerFormSchema, { name: 'Anna', email: 'A@X.test', code: ' anna-1 ', commissionKind: 'fixed', commissionValue: '19,99', cookieDays: '365' })
    expect(ok).toMatchObject({ ok: true, data: { code: 'ANNA-1', email: 'a@x.test', commissionValue: 1999, cookieDays: 365 } })
    const cases: Array<[Record<string, string>, string]> = [
      [{ code: 'a b' }, 'code'],
      [{ cookieDays: '0' }, 'cookieDays'],
      [{ cookieDays: '366' }, 'cookieDays'],
      [{ email: 'nope' }, 'email'],
      [{ name: '' }, 'name'],
      [{ commissionKind: 'percent', commissionValue: '101' }, 'commissionValue'],
      [{ commissionKind: 'percent', commissionValue: '0' }, 'commissionValue'],
      [{ commissionKind: 'fixed', commissionValue: '0' }, 'commissionValue'],
    ]
    for (const [patch, field] of cases) {
      const r = parseWith(PartnerFormSchema, { name: 'Anna', email: 'a@x.test', code: '', commissionKind: 'percent', commissionValue: '10', cookieDays: '30', ...patch })
      expect(r.ok, field).toBe(false)
      if (!r.ok) expect(Object.keys(r.errors), field).toContain(field)
    }
  })
})

describe('stats link tokens', () => {
  it('round-trip; refuse an altered claim, another key and a non-canonical signature', async () => {
    const token = await signPartnerStatsToken(KEY, { tenantId: 'tenant1', partnerId: 'partner1' })
    expect(await verifyPartnerStatsToken(KEY, token)).toEqual({ tenantId: 'tenant1', partnerId: 'partner1' })
    const signature = token.split('.')[2]!
    expect(await verifyPartnerStatsToken(KEY, `tenant2.partner1.${signature}`)).toBeNull()
    expect(await verifyPartnerStatsToken(KEY, `tenant1.partner2.${signature}`)).toBeNull()
    expect(await verifyPartnerStatsToken('b3RoZXItZGVwbG95bWVudC1pbnRlZ3JhdGlvbnMta2V5', token)).toBeNull()
    for (const bad of ['', 'a.b', `${token}.x`, token.replace(/.$/, '!')]) expect(await verifyPartnerStatsToken(KEY, bad)).toBeNull()
  })
})
