// Shipping states of physical orders (issue 24 item 4), through the real routes: a paid physical
// order moves ready → shipped → delivered from its transaction page with exactly one e-mail per
// move (EN and PL), a double submit or a race sends one, an unpaid order or a course sale cannot be
// shipped, bad tracking input answers field errors, another school's order is 404, the buyer's
// /panel shows the state and parcel locker, the bulk list and the CSV export.
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createProduct } from '#app/models/product.server.ts'
import { createTransaction, settleTransaction } from '#app/models/transaction.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, flashOf, followFlash, login, type TestSchool } from '#tests/factories.ts'

type Order = { id: string; hash: string }
const LOCKER = { shipmentType: 'parcel_locker', parcelLockerCode: 'KRA01M' }

async function setup(language: 'en' | 'pl' = 'en') {
  const school = await createTestSchool({ language })
  const buyer = await createTestStudent(school.tenantId, { name: 'Bea Buyer' })
  const owner = await login(school.host, school.owner.email, school.owner.password)
  const mug = await createProduct(db(), school.tenantId, { kind: 'physical', title: 'Coffee mug', published: true, shippingLockerPrice: 1200, shippingCourierPrice: 1900 })
  return { school, buyer, owner, mug }
}

/** An order of `productId` by the buyer; completed unless `status` says otherwise (null: still pending). */
async function order(
  school: TestSchool,
  buyer: { id: string; email: string },
  product: { id: string; title: string },
  opts: { kind?: 'physical' | 'course'; status?: 'completed' | null; shipping?: object } = {},
): Promise<Order> {
  const kind = opts.kind ?? 'physical'
  const tx = await createTransaction(db(), school.tenantId, {
    userId: buyer.id,
    productId: product.id,
    productKind: kind,
    productTitle: product.title,
    currency: 'USD',
    unitAmount: 3000,
    totalAmount: 4200,
    shippingAmount: kind === 'physical' ? 1200 : 0,
    buyer: JSON.stringify({ name: 'Bea Buyer', email: buyer.email, phone: '+48500100200' }),
    shipping: kind === 'physical' ? JSON.stringify(opts.shipping ?? LOCKER) : null,
    termsAcceptedAt: Date.now(),
    checkoutPath: '/x/checkout',
  })
  if (opts.status !== null) await settleTransaction(db(), school.tenantId, tx.id, { event: null, status: 'completed' })
  return { id: tx.id, hash: tx.hash }
}

const row = (id: string) =>
  env.DB_SHARD_0.prepare('SELECT status, shipping_status, shipping_carrier, tracking_number, tracking_url, shipped_at, delivered_at FROM transactions WHERE id = ?').bind(id).first<Record<string, unknown>>()
const mails = async (tenantId: string) =>
  (
    await env.DB_SHARD_0.prepare(
      "SELECT id, template, to_address, subject, text_body, html_body FROM email_outbox WHERE tenant_id = ? AND template IN ('order_shipped', 'order_delivered') ORDER BY created_at",
    )
      .bind(tenantId)
      .all<Record<string, string>>()
  ).results
const post = (school: TestSchool, cookie: string, id: string, form: Record<string, string>) => appFetch(school.host, `/home/transactions/${id}`, { cookie, form })
const ship = { intent: 'ship', carrier: 'InPost', trackingNumber: '6300123456789', trackingUrl: 'https://inpost.pl/sledzenie-przesylek?number=6300123456789' }

describe('shipping: one order', () => {
  it('moves a paid physical order ready → shipped → delivered with one English e-mail per move; repeats change nothing', async () => {
    const { school, buyer, owner, mug } = await setup('en')
    const o = await order(school, buyer, mug)
    expect(await row(o.id)).toMatchObject({ status: 'completed', shipping_status: 'ready' })

    const page = await (await appFetch(school.host, `/home/transactions/${o.id}`, { cookie: owner })).text()
    expect(page).toContain('data-transaction-shipping')
    expect(page).toContain('data-shipping-state="ready"')
    expect(page).toContain('KRA01M')
    expect(page).toContain('data-ship-form')

    const shipped = await post(school, owner, o.id, ship)
    expect(shipped.status).toBe(303)
    expect(shipped.headers.get('Location')).toBe(`/home/transactions/${o.id}`)
    expect(flashOf(shipped)).toMatchObject({ done: 'shipped', message: 'shipping.done.shipped' })
    expect(await row(o.id)).toMatchObject({ shipping_status: 'shipped', shipping_carrier: 'InPost', tracking_number: '6300123456789', tracking_url: ship.trackingUrl, delivered_at: null })
    let sent = await mails(school.tenantId)
    expect(sent.map((m) => [m.template, m.to_address, m.subject])).toEqual([['order_shipped', buyer.email, 'Your order has shipped: Coffee mug']])
    expect(sent[0]!.text_body).toContain('has shipped with InPost')
    expect(sent[0]!.text_body).toContain('Tracking number: 6300123456789')
    expect(sent[0]!.text_body).toContain('KRA01M')
    expect(sent[0]!.text_body).toContain(`http://${school.host}/panel`)
    expect(sent[0]!.html_body).toContain('href="https://inpost.pl/sledzenie-przesylek?number=6300123456789"')

    // A double submit: the order is no longer ready — nothing changes, no second e-mail.
    const again = await post(school, owner, o.id, { ...ship, carrier: 'DPD' })
    expect(again.status).toBe(303)
    expect(flashOf(again)).toMatchObject({ done: 'shipping_unchanged' })
    expect(await row(o.id)).toMatchObject({ shipping_carrier: 'InPost' })
    expect(await mails(school.tenantId)).toHaveLength(1)

    const after = await (await appFetch(school.host, `/home/transactions/${o.id}`, { cookie: followFlash(owner, shipped) })).text()
    expect(after).toContain('data-shipping-state="shipped"')
    expect(after).toContain('data-deliver-form')
    expect(after).not.toContain('data-ship-form')
    expect(after).toContain('The order is marked as shipped; the buyer was e-mailed.')

    const delivered = await post(school, owner, o.id, { intent: 'deliver' })
    expect(delivered.status).toBe(303)
    expect(flashOf(delivered)).toMatchObject({ done: 'delivered' })
    expect((await row(o.id))!.shipping_status).toBe('delivered')
    expect((await row(o.id))!.delivered_at).toEqual(expect.any(Number))
    expect((await post(school, owner, o.id, { intent: 'deliver' })).status).toBe(303)
    sent = await mails(school.tenantId)
    expect(sent.map((m) => [m.template, m.subject])).toEqual([
      ['order_shipped', 'Your order has shipped: Coffee mug'],
      ['order_delivered', 'Your order was delivered: Coffee mug'],
    ])
    // Delivered is final: no form to move it back.
    const final = await (await appFetch(school.host, `/home/transactions/${o.id}`, { cookie: owner })).text()
    expect(final).toContain('data-shipping-state="delivered"')
    expect(final).not.toContain('data-ship-form')
    expect(final).not.toContain('data-deliver-form')
  })

  it('e-mails a Polish school’s buyer in Polish', async () => {
    const { school, buyer, owner, mug } = await setup('pl')
    const o = await order(school, buyer, mug)
    expect((await post(school, owner, o.id, { intent: 'ship', carrier: 'Poczta Polska', trackingNumber: 'PP123' })).status).toBe(303)
    expect((await post(school, owner, o.id, { intent: 'deliver' })).status).toBe(303)
    const sent = await mails(school.tenantId)
    expect(sent.map((m) => m.subject)).toEqual(['Twoje zamówienie zostało wysłane: Coffee mug', 'Twoje zamówienie zostało doręczone: Coffee mug'])
    expect(sent[0]!.text_body).toContain('zostało wysłane przez Poczta Polska')
    expect(sent[0]!.text_body).toContain('Numer przesyłki: PP123')
    const panel = await (await appFetch(school.host, '/panel', { cookie: await login(school.host, buyer.email, buyer.password) })).text()
    expect(panel).toContain('Doręczone')
    expect(panel).toContain('Paczkomat: KRA01M')
    expect(panel).toContain('Numer przesyłki: PP123')
  })

  it('sends one e-mail when two submits race', async () => {
    const { school, buyer, owner, mug } = await setup('en')
    const o = await order(school, buyer, mug)
    const answers = await Promise.all([post(school, owner, o.id, ship), post(school, owner, o.id, { ...ship, trackingNumber: 'OTHER' })])
    expect(answers.map((a) => a.status)).toEqual([303, 303])
    expect(answers.map((a) => flashOf(a)?.done).sort()).toEqual(['shipped', 'shipping_unchanged'])
    expect(await mails(school.tenantId)).toHaveLength(1)
    expect((await row(o.id))!.shipping_status).toBe('shipped')
  })

  it('answers field errors for bad tracking input and writes nothing', async () => {
    const { school, buyer, owner, mug } = await setup('en')
    const o = await order(school, buyer, mug)
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ ...ship, trackingUrl: 'javascript:alert(1)' }, 'trackingUrl', 'Enter a link that starts with http:// or https://'],
      [{ ...ship, trackingUrl: 'ftp://example.com/parcel' }, 'trackingUrl', 'Enter a link that starts with http:// or https://'],
      [{ ...ship, trackingNumber: '', trackingUrl: '' }, 'trackingNumber', 'Give a tracking number or a tracking link.'],
      [{ ...ship, carrier: '  ' }, 'carrier', 'This field is required'],
      [{ ...ship, trackingNumber: 'x'.repeat(81) }, 'trackingNumber', '80'],
    ]
    for (const [form, field, text] of cases) {
      const res = await post(school, owner, o.id, form)
      expect(res.status, field).toBe(422)
      const html = await res.text()
      expect(html, field).toContain(`data-field-error="${field}"`)
      expect(html, field).toContain(text)
    }
    expect(await row(o.id)).toMatchObject({ shipping_status: 'ready', shipping_carrier: null, shipped_at: null })
    expect(await mails(school.tenantId)).toHaveLength(0)
    // A tracking link alone is enough.
    expect((await post(school, owner, o.id, { intent: 'ship', carrier: 'DHL', trackingUrl: 'https://dhl.example/track/1' })).status).toBe(303)
    expect(await row(o.id)).toMatchObject({ shipping_status: 'shipped', tracking_number: null, tracking_url: 'https://dhl.example/track/1' })
  })

  it('refuses an unpaid order and a course sale (4xx, nothing written, no e-mail)', async () => {
    const { school, buyer, owner, mug } = await setup('en')
    const pending = await order(school, buyer, mug, { status: null })
    const course = await createProduct(db(), school.tenantId, { kind: 'course', title: 'A course', published: true })
    const sale = await order(school, buyer, course, { kind: 'course' })
    for (const id of [pending.id, sale.id]) {
      const res = await post(school, owner, id, ship)
      expect(res.status).toBe(409)
      expect(await res.text()).toContain('Only a paid order of a physical product can be shipped.')
      expect((await post(school, owner, id, { intent: 'deliver' })).status).toBe(409)
    }
    expect(await row(pending.id)).toMatchObject({ status: 'pending', shipping_status: 'ready', shipped_at: null })
    expect(await row(sale.id)).toMatchObject({ shipping_status: null, shipped_at: null })
    // Delivered before shipped is refused too: the state only moves one step forward.
    const paid = await order(school, buyer, mug)
    expect((await post(school, owner, paid.id, { intent: 'deliver' })).status).toBe(303)
    expect((await row(paid.id))!.shipping_status).toBe('ready')
    expect(await mails(school.tenantId)).toHaveLength(0)
    const page = await (await appFetch(school.host, `/home/transactions/${pending.id}`, { cookie: owner })).text()
    expect(page).toContain('The order can be shipped once it is paid.')
    expect(page).not.toContain('data-ship-form')
    // A refunded order is never shipped either.
    const refunded = await order(school, buyer, mug)
    await settleTransaction(db(), school.tenantId, refunded.id, { event: null, status: 'refunded' })
    expect((await post(school, owner, refunded.id, ship)).status).toBe(409)
    const refundedPage = await (await appFetch(school.host, `/home/transactions/${refunded.id}`, { cookie: owner })).text()
    expect(refundedPage).toContain('This order is not shipped: it was not paid or was refunded.')
    expect(refundedPage).not.toContain('data-ship-form')
    expect(await row(refunded.id)).toMatchObject({ status: 'refunded', shipping_status: 'ready', shipped_at: null })
    expect(await mails(school.tenantId)).toHaveLength(0)
  })

  it('answers 404 for another school’s order and to a student; nothing changes', async () => {
    const { school, buyer, mug } = await setup('en')
    const o = await order(school, buyer, mug)
    const other = await setup('en')
    for (const form of [ship, { intent: 'deliver' }]) expect((await post(other.school, other.owner, o.id, form)).status).toBe(404)
    expect((await appFetch(other.school.host, `/home/transactions/${o.id}`, { cookie: other.owner })).status).toBe(404)
    const student = await login(school.host, buyer.email, buyer.password)
    expect((await post(school, student, o.id, ship)).status).toBe(404)
    expect((await row(o.id))!.shipping_status).toBe('ready')
    expect(await mails(school.tenantId)).toHaveLength(0)
  })
})

describe('shipping: the buyer’s panel', () => {
  it('shows each state, the carrier, tracking link and parcel locker code; no false promise', async () => {
    const { school, buyer, owner, mug } = await setup('en')
    await order(school, buyer, mug, { status: null })
    const o = await order(school, buyer, mug)
    const cookie = await login(school.host, buyer.email, buyer.password)
    const panel = async () => {
      const res = await appFetch(school.host, '/panel', { cookie })
      expect(res.status).toBe(200)
      return res.text()
    }
    let html = await panel()
    expect(html).toContain('data-panel-physical')
    // Only the paid order is listed.
    expect(html.match(/data-shipment-state=/g)).toHaveLength(1)
    expect(html).toContain('data-shipment-state="ready"')
    expect(html).toContain('Ready for shipping. We’ll e-mail you when it ships.')
    expect(html).toContain('Parcel locker: KRA01M')

    await post(school, owner, o.id, ship)
    html = await panel()
    expect(html).toContain('data-shipment-state="shipped"')
    expect(html).toContain('Shipped with InPost on')
    expect(html).toContain('Tracking number: 6300123456789')
    expect(html).toContain('href="https://inpost.pl/sledzenie-przesylek?number=6300123456789"')
    expect(html).not.toContain('We’ll e-mail you when it ships')

    await post(school, owner, o.id, { intent: 'deliver' })
    html = await panel()
    expect(html).toContain('data-shipment-state="delivered"')
    expect(html).toContain('Delivered on')
    expect(html).toContain('Parcel locker: KRA01M')
  })
})

describe('shipping: orders to ship', () => {
  it('lists paid physical orders by state, ships and delivers in bulk (one e-mail each), ignores another school’s ids', async () => {
    const { school, buyer, owner, mug } = await setup('en')
    const a = await order(school, buyer, mug)
    const b = await order(school, buyer, mug, { shipping: { shipmentType: 'courier', address: 'Main 1', postalCode: '10001', city: 'Town' } })
    const unpaid = await order(school, buyer, mug, { status: null })
    const other = await setup('en')
    const foreign = await order(other.school, other.buyer, other.mug)

    const list = await (await appFetch(school.host, '/home/shipping', { cookie: owner })).text()
    expect(list).toContain(`data-order="${a.hash}"`)
    expect(list).toContain(`data-order="${b.hash}"`)
    expect(list).not.toContain(unpaid.hash)
    expect(list).toContain('Parcel locker KRA01M')
    expect(list).toContain('Main 1, 10001 Town')
    expect(list).toContain('2 orders')

    const none = await appFetch(school.host, '/home/shipping', { cookie: owner, form: { intent: 'ship', carrier: 'InPost' } })
    expect(none.status).toBe(422)
    expect(await none.text()).toContain('Select at least one order.')
    const noCarrier = await appFetch(school.host, '/home/shipping', { cookie: owner, form: { intent: 'ship', carrier: '', [`order_${a.id}`]: 'on' } })
    expect(noCarrier.status).toBe(422)
    expect(await noCarrier.text()).toContain('data-field-error="carrier"')

    const shipped = await appFetch(school.host, '/home/shipping', {
      cookie: owner,
      form: { intent: 'ship', carrier: 'DPD', [`order_${a.id}`]: 'on', [`tracking_${a.id}`]: 'DPD-A', [`order_${b.id}`]: 'on', [`order_${unpaid.id}`]: 'on', [`order_${foreign.id}`]: 'on' },
    })
    expect(shipped.status).toBe(303)
    expect(flashOf(shipped)).toMatchObject({ done: 'bulk_shipped', values: { count: 2 } })
    expect(await row(a.id)).toMatchObject({ shipping_status: 'shipped', shipping_carrier: 'DPD', tracking_number: 'DPD-A' })
    expect(await row(b.id)).toMatchObject({ shipping_status: 'shipped', shipping_carrier: 'DPD', tracking_number: null })
    expect(await row(unpaid.id)).toMatchObject({ shipping_status: 'ready', status: 'pending' })
    expect(await row(foreign.id)).toMatchObject({ shipping_status: 'ready' })
    expect(await mails(other.school.tenantId)).toHaveLength(0)
    expect((await mails(school.tenantId)).map((m) => m.template)).toEqual(['order_shipped', 'order_shipped'])

    const ready = await (await appFetch(school.host, '/home/shipping', { cookie: owner })).text()
    expect(ready).toContain('No paid orders are waiting to be shipped.')
    const onTheWay = await (await appFetch(school.host, '/home/shipping?state=shipped', { cookie: owner })).text()
    expect(onTheWay).toContain(`data-order="${a.hash}"`)
    expect(onTheWay).toContain('DPD · DPD-A')

    const delivered = await appFetch(school.host, '/home/shipping', { cookie: owner, form: { intent: 'deliver', [`order_${a.id}`]: 'on', [`order_${b.id}`]: 'on' } })
    expect(delivered.status).toBe(303)
    expect(flashOf(delivered)).toMatchObject({ done: 'bulk_delivered', values: { count: 2 } })
    expect((await mails(school.tenantId)).map((m) => m.template)).toEqual(['order_shipped', 'order_shipped', 'order_delivered', 'order_delivered'])
    // A bad filter falls back to ready, never an error page.
    expect((await appFetch(school.host, '/home/shipping?state=lost&page=x', { cookie: owner })).status).toBe(200)
  })

  it('exports the orders to ship as CSV, once per minute', async () => {
    const { school, buyer, owner, mug } = await setup('en')
    const a = await order(school, buyer, mug)
    const b = await order(school, buyer, mug, { shipping: { shipmentType: 'courier', address: 'Main 1', postalCode: '10001', city: 'Town' } })
    await order(school, buyer, mug, { status: null })
    const res = await appFetch(school.host, '/home/shipping/export', { cookie: owner, form: { state: 'ready' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toContain('text/csv')
    expect(res.headers.get('Content-Disposition')).toMatch(/attachment; filename="orders-to-ship-ready-\d{4}-\d{2}-\d{2}\.csv"/)
    const lines = (await res.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
    expect(lines[0]).toBe('Order,Date,Product,Quantity,Buyer,Email,Phone,Shipment type,Parcel locker or address,State')
    expect(lines).toHaveLength(3)
    expect(lines[1]).toMatch(
      new RegExp(`^${a.hash},\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}[^,]*,Coffee mug,1,Bea Buyer,${buyer.email.replace(/[.+]/g, '\\$&')},'\\+48500100200,Parcel locker,KRA01M,Ready for shipping$`),
    )
    expect(lines[2]).toContain(`${b.hash},`)
    expect(lines[2]).toContain(',Courier,"Main 1, 10001 Town",Ready for shipping')
    const again = await appFetch(school.host, '/home/shipping/export', { cookie: owner, form: { state: 'ready' } })
    expect(again.status).toBe(303)
    expect(again.headers.get('Location')).toBe('/home/shipping?state=ready&error=export_limit')
    const page = await (await appFetch(school.host, '/home/shipping?state=ready&error=export_limit', { cookie: owner })).text()
    expect(page).toContain('You can only make one export per minute')
  })
})
