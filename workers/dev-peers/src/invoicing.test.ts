// The invoicing system peers' own answers (the adapters' side is tested in app/invoicing/adapters.test.ts):
// documented auth refusals, validation answers, and injected faults.
import { createHmac } from 'node:crypto'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { peersApp } from './app.ts'
import type { PeersEnv } from './env.ts'

const peersEnv = env as unknown as PeersEnv
const BASE = 'http://dev-peers.internal'
const call = (path: string, init: RequestInit = {}) => peersApp.request(`${BASE}${path}`, init, peersEnv)
const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({ method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) })

const TOKEN = 'coursefront_dev_fakturownia_token_0000'
const fakturowniaInvoice = { kind: 'vat', sell_date: '2026-11-20', issue_date: '2026-11-20', buyer_name: 'ACME', positions: [{ name: 'Kurs', quantity: 1, total_price_gross: '123.00', tax: 23 }] }

describe('Fakturownia peer', () => {
  it('401 without the account’s token, in Fakturownia’s words', async () => {
    for (const body of [{ invoice: fakturowniaInvoice }, { api_token: 'x', invoice: fakturowniaInvoice }]) {
      const res = await call('/fakturownia/coursefront-dev/invoices.json', json(body))
      expect(res.status).toBe(401)
      expect(await res.json()).toEqual({ code: 'error', message: 'You must be logged in to gain access to this site' })
    }
    // The token of one account does not open another.
    expect((await call(`/fakturownia/someone-else/invoices.json?api_token=${TOKEN}`)).status).toBe(401)
  })

  it('422 with the field errors; 201 numbers invoices per month; a fault answers once', async () => {
    const bad = await call('/fakturownia/coursefront-dev/invoices.json', json({ api_token: TOKEN, invoice: { ...fakturowniaInvoice, buyer_name: '', positions: [{ ...fakturowniaInvoice.positions[0], tax: 17 }] } }))
    expect(bad.status).toBe(422)
    expect(await bad.json()).toMatchObject({ code: 'error', message: { buyer_name: expect.any(Array), 'positions.0.tax': ['is not included in the list'] } })

    await call('/_peer/invoicing/faults', json({ system: 'fakturownia', count: 1, status: 503 }))
    expect((await call('/fakturownia/coursefront-dev/invoices.json', json({ api_token: TOKEN, invoice: fakturowniaInvoice }))).status).toBe(503)
    const a = (await (await call('/fakturownia/coursefront-dev/invoices.json', json({ api_token: TOKEN, invoice: { ...fakturowniaInvoice, oid: 'o-1', oid_unique: 'yes' } }))).json()) as { number: string; price_gross: string }
    const b = (await (await call('/fakturownia/coursefront-dev/invoices.json', json({ api_token: TOKEN, invoice: { ...fakturowniaInvoice, issue_date: '2026-12-01' } }))).json()) as { number: string }
    expect(a).toMatchObject({ number: 'FV 1/11/2026', price_gross: '123.00' })
    expect(b.number).toBe('FV 1/12/2026')
    const dup = await call('/fakturownia/coursefront-dev/invoices.json', json({ api_token: TOKEN, invoice: { ...fakturowniaInvoice, oid: 'o-1', oid_unique: 'yes' } }))
    expect(dup.status).toBe(422)
    expect(await dup.json()).toEqual({ code: 'error', message: { oid: ['has already been taken'] } })
  })
})

describe('inFakt peer', () => {
  it('401 without a known X-inFakt-ApiKey; 422 for a company without NIP', async () => {
    expect((await call('/infakt/v3/invoices.json')).status).toBe(401)
    expect((await call('/infakt/v3/invoices.json', { headers: { 'X-inFakt-ApiKey': 'nope' } })).status).toBe(401)
    const res = await call('/infakt/v3/invoices.json', json({ invoice: { client_company_name: 'ACME', client_business_activity_kind: 'other_business', services: [{ name: 'Kurs', gross_price: 12300, tax_symbol: '23' }] } }, { 'X-inFakt-ApiKey': 'coursefront_dev_infakt_api_key_000000' }))
    expect(res.status).toBe(422)
    expect(await res.json()).toEqual({ errors: { client_tax_code: ['NIP is required for a company'] } })
  })
})

describe('iFirma peer', () => {
  const sign = (url: string, body: string, key = 'C0FFEE0123456789', user = 'coursefront-dev') => `IAPIS user=${user}, hmac-sha1=${createHmac('sha1', Buffer.from(key, 'hex')).update(url + user + 'faktura' + body).digest('hex')}`

  it('answers the documented codes: 400 bad header, 401 unknown login, 403 bad hash; 0 with a good one', async () => {
    const url = `${BASE}/ifirma/iapi/fakturakraj/list.json`
    const codes = []
    for (const auth of [undefined, 'Bearer x', sign(url, '', 'C0FFEE0123456789', 'nobody'), sign(`${BASE}/ifirma/iapi/other.json`, ''), sign(url, '', 'C0FFEE0123456788'), sign(url, '')]) {
      const res = await call('/ifirma/iapi/fakturakraj/list.json?limit=1', auth ? { headers: { Authentication: auth } } : {})
      codes.push(((await res.json()) as { response: { Kod: number } }).response.Kod)
    }
    expect(codes).toEqual([400, 400, 401, 403, 403, 0])
  })

  it('signs the body too: the same header over another body is refused', async () => {
    const url = `${BASE}/ifirma/iapi/fakturakraj.json`
    const res = await call('/ifirma/iapi/fakturakraj.json', { method: 'POST', headers: { 'Content-Type': 'application/json; charset=UTF-8', Authentication: sign(url, '{}') }, body: '{"a":1}' })
    expect(((await res.json()) as { response: { Kod: number } }).response.Kod).toBe(403)
    const invalid = await call('/ifirma/iapi/fakturakraj.json', { method: 'POST', headers: { 'Content-Type': 'application/json; charset=UTF-8', Authentication: sign(url, '{}') }, body: '{}' })
    expect(((await invalid.json()) as { response: { Kod: number } }).response.Kod).toBe(201)
  })
})
