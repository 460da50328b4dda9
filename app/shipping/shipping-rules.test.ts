// The pure rules of the shipping states (issue 24 item 4): the "Mark as shipped" form's schema,
// the bulk form's ticked ids, where a parcel goes, which orders take part, the buyer's e-mails in
// both languages, and the panel's physical items built from access rows and paid orders.
import { describe, expect, it } from 'vitest'
import { assemblePanel } from '#app/models/student-panel.server.ts'
import { parseWith } from '#app/utils/validation.ts'
import { destinationOf } from './destination.ts'
import { orderDeliveredEmail, orderShippedEmail } from './shipping-mail.server.ts'
import { bulkTrackingNumber, isWebUrl, selectedIds, ShipSchema, shippingStateOf } from './shipping.server.ts'

describe('ShipSchema', () => {
  it('takes a carrier and a tracking number and/or a web link', () => {
    expect(parseWith(ShipSchema, { carrier: ' InPost ', trackingNumber: ' 63001 ', trackingUrl: '' })).toEqual({ ok: true, data: { carrier: 'InPost', trackingNumber: '63001', trackingUrl: null } })
    expect(parseWith(ShipSchema, { carrier: 'DHL', trackingUrl: 'https://dhl.example/t?1' })).toEqual({
      ok: true,
      data: { carrier: 'DHL', trackingNumber: null, trackingUrl: 'https://dhl.example/t?1' },
    })
  })

  it('answers field errors: carrier, missing tracking, links that are not web links', () => {
    const errors = (input: Record<string, string>) => {
      const parsed = parseWith(ShipSchema, input)
      return parsed.ok ? null : parsed.errors
    }
    expect(errors({ carrier: '', trackingNumber: '1' })).toEqual({ carrier: { key: 'validation.required' } })
    expect(errors({ carrier: 'DPD', trackingNumber: ' ', trackingUrl: '' })).toEqual({ trackingNumber: { key: 'shipping.error.tracking_required' } })
    for (const url of ['javascript:alert(1)', 'ftp://x.example/1', 'inpost.pl/1', 'https://'])
      expect(errors({ carrier: 'DPD', trackingUrl: url }), url).toEqual({ trackingUrl: { key: 'shipping.error.tracking_url' } })
    expect(errors({ carrier: 'DPD', trackingNumber: 'a\u0000b' })).toEqual({ trackingNumber: { key: 'validation.invalid' } })
    expect(isWebUrl('http://track.example/1')).toBe(true)
  })
})

describe('the bulk form', () => {
  it('takes the ticked ids (at most 50, well-formed only) and their optional tracking numbers', () => {
    const fields: Record<string, string> = { intent: 'ship', carrier: 'DPD', order_a1: 'on', order_b2: 'off', 'order_../x': 'on', tracking_a1: ' T-1 ', tracking_c3: '' }
    expect(selectedIds(fields)).toEqual(['a1'])
    expect(bulkTrackingNumber(fields, 'a1')).toBe('T-1')
    expect(bulkTrackingNumber(fields, 'c3')).toBeNull()
    expect(bulkTrackingNumber({ tracking_x: 'x'.repeat(81) }, 'x')).toBeNull()
    const many = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`order_id${i}`, 'on']))
    expect(selectedIds(many)).toHaveLength(50)
  })
})

describe('orders and parcels', () => {
  it('says where a parcel goes', () => {
    expect(destinationOf({ shipmentType: 'parcel_locker', parcelLockerCode: 'KRA01M' })).toBe('KRA01M')
    expect(destinationOf({ shipmentType: 'courier', address: 'Polna 1', postalCode: '12-345', city: 'Kraków' })).toBe('Polna 1, 12-345 Kraków')
    expect(destinationOf(null)).toBe('')
  })

  it('ships only paid physical orders', () => {
    expect(shippingStateOf({ productKind: 'physical', status: 'completed', shippingStatus: 'shipped' })).toEqual({ kind: 'shippable', state: 'shipped' })
    expect(shippingStateOf({ productKind: 'physical', status: 'pending', shippingStatus: 'ready' })).toEqual({ kind: 'unpaid' })
    expect(shippingStateOf({ productKind: 'course', status: 'completed', shippingStatus: null })).toEqual({ kind: 'none' })
  })
})

describe('the buyer’s e-mails', () => {
  const base = { school: 'Pracownia', origin: 'https://school.example', to: 'bea@example.com', name: 'Bea', product: 'Kubek <b>', lockerCode: 'KRA01M' }
  it('shipped: carrier, number, link (escaped in HTML), locker and the panel link, in the school’s language', () => {
    const en = orderShippedEmail({ ...base, locale: 'en', carrier: 'InPost', trackingNumber: '63', trackingUrl: 'https://inpost.example/?n=63&x="' })
    expect(en.subject).toBe('Your order has shipped: Kubek <b>')
    expect(en.text).toContain('Tracking number: 63')
    expect(en.text).toContain('https://school.example/panel')
    expect(en.html).toContain('href="https://inpost.example/?n=63&amp;x=&quot;"')
    expect(en.html).toContain('Kubek &lt;b&gt;')
    const pl = orderShippedEmail({ ...base, locale: 'pl', carrier: 'DPD', trackingNumber: null, trackingUrl: null })
    expect(pl.subject).toBe('Twoje zamówienie zostało wysłane: Kubek <b>')
    expect(pl.text).toContain('Przesyłka trafi do paczkomatu KRA01M.')
    expect(pl.text).not.toContain('Numer przesyłki')
  })

  it('delivered', () => {
    expect(orderDeliveredEmail({ ...base, locale: 'en' }).subject).toBe('Your order was delivered: Kubek <b>')
    expect(orderDeliveredEmail({ ...base, locale: 'pl' }).subject).toBe('Twoje zamówienie zostało doręczone: Kubek <b>')
  })
})

describe('the panel’s physical products', () => {
  const NOW = Date.UTC(2026, 10, 22, 12)
  const DAY = 86_400_000
  const access = (productId: string) => ({
    productId,
    startsAt: NOW - 10 * DAY,
    expiresAt: null,
    revokedAt: null,
    kind: 'physical' as const,
    title: productId.toUpperCase(),
    slug: productId,
    description: '',
    coverPath: null,
    published: true,
    membershipPeriod: null,
    membershipGrantsAll: false,
    eventStartsAt: null,
    eventTimezone: null,
    eventJoinUrl: null,
    consultationMinutes: null,
  })
  const shipment = (id: string, productId: string | null, over: Record<string, unknown> = {}) => ({
    id,
    productId,
    title: `Order ${id}`,
    slug: productId,
    createdAt: NOW - 2 * DAY,
    completedAt: NOW - 2 * DAY,
    quantity: 1,
    state: 'ready' as const,
    carrier: null,
    trackingNumber: null,
    trackingUrl: null,
    shippedAt: null,
    deliveredAt: null,
    shipping: JSON.stringify({ shipmentType: 'parcel_locker', parcelLockerCode: 'KRA01M' }),
    ...over,
  })

  it('lists a hand-granted product and bought ones (no access row), each with its orders and locker code', () => {
    const panel = assemblePanel(
      {
        rows: [access('mug')],
        linkRows: [],
        allCourses: [],
        statRows: [],
        lastRows: [],
        fileRows: [],
        shipmentRows: [
          shipment('t2', 'book', { state: 'shipped', carrier: 'DPD', shippedAt: NOW - DAY, shipping: JSON.stringify({ shipmentType: 'courier', address: 'Polna 1' }) }),
          shipment('t1', 'book', { createdAt: NOW - 5 * DAY, completedAt: NOW - 5 * DAY }),
          shipment('t3', null, { title: 'Gone product', slug: null }),
        ],
      },
      NOW,
    )
    expect(panel.physical.map((p) => [p.title, p.slug, p.status, p.orders.map((o) => [o.id, o.state, o.lockerCode])])).toEqual([
      ['Gone product', null, 'active', [['t3', 'ready', 'KRA01M']]],
      ['MUG', 'mug', 'active', []],
      [
        'Order t2',
        'book',
        'active',
        [
          ['t2', 'shipped', null],
          ['t1', 'ready', 'KRA01M'],
        ],
      ],
    ])
    expect(panel.physical.find((p) => p.slug === 'book')!.since).toBe(NOW - 5 * DAY)
  })
})
