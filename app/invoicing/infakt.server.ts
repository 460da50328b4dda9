// inFakt (infakt.pl) REST API v3, as documented at infakt.pl/developers:
//   - endpoint https://api.infakt.pl/v3 (TLS 1.2+); the API key from the account settings goes in
//     the `X-inFakt-ApiKey` header; JSON bodies with `Content-Type: application/json`, UTF-8;
//   - POST /invoices.json {invoice: {kind: "vat", currency, payment_method, paid_price, paid_date,
//     sale_date, invoice_date, notes, client_company_name | client_first_name + client_last_name,
//     client_tax_code, client_business_activity_kind, client_street, client_post_code, client_city,
//     client_country, services: [{name, quantity, gross_price, tax_symbol}]}} → 201 with the invoice
//     (id, uuid, number, …). Money is in grosze (integers) — our minor units as they are;
//   - searching is `GET /invoices.json?q[<field>_<modifier>]=…` (`_eq`, `_cont`): our reference
//     goes in `notes` ("Zamówienie {hash}") and `q[notes_cont]` finds it again (assumption: notes
//     is among the searchable fields; the local peer implements it so). inFakt has no public
//     invoice link, so `url` stays empty (the PDF needs the API key).
//   - GET /invoices/{id}.json; the PDF at GET /invoices/{id}/pdf.json?document_type=original; an unknown or missing key answers 401.
// tax_symbol is the rate as a string ("23", "8", "5", "0") or "zw" (exempt).
import { callSystem, readJson, readPdf, statusError, InvoicingError, type FetchLike, type InvoicingAdapter, type IssuedInvoice } from './adapter.server.ts'
import { splitVatNumber, type InvoiceContent } from './invoice-content.ts'

const SYSTEM = 'inFakt'
export const INFAKT_API_URL = 'https://api.infakt.pl/v3'

export type InfaktConfig = { baseUrl: string; apiKey: string }

type InfaktInvoice = { id?: number | string; number?: string; notes?: string }

const noteFor = (reference: string) => `Zamówienie ${reference}`

function issued(json: unknown): IssuedInvoice {
  const inv = (json ?? {}) as InfaktInvoice
  if (inv.id === undefined || !inv.number) throw new InvoicingError('unavailable', `${SYSTEM}: the answer has no invoice id or number`)
  return { externalId: String(inv.id), number: inv.number, url: null }
}

function errorDetail(json: unknown) {
  const j = (json ?? {}) as { error?: unknown; message?: unknown; errors?: unknown }
  if (typeof j.error === 'string') return j.error
  if (typeof j.message === 'string') return j.message
  if (j.errors && typeof j.errors === 'object') {
    return Object.entries(j.errors as Record<string, unknown>)
      .map(([field, v]) => `${field}: ${Array.isArray(v) ? v.join(', ') : String(v)}`)
      .join('; ')
  }
  return ''
}

/** The body of POST /invoices.json for our content. */
export function infaktInvoiceBody(content: InvoiceContent) {
  const b = content.buyer
  const words = b.name.split(/\s+/).filter(Boolean)
  const client =
    b.kind === 'company'
      ? { client_company_name: b.name, client_tax_code: b.vatNumber ? (splitVatNumber(b.vatNumber).prefix === 'PL' ? splitVatNumber(b.vatNumber).number : b.vatNumber) : undefined, client_business_activity_kind: 'other_business' }
      : { client_first_name: words.length > 1 ? words.slice(0, -1).join(' ') : words[0], client_last_name: words.length > 1 ? words[words.length - 1] : '', client_business_activity_kind: 'private_person' }
  return {
    invoice: {
      kind: 'vat',
      currency: content.currency,
      payment_method: 'other',
      paid_price: content.totalGross,
      paid_date: content.date,
      sale_date: content.date,
      invoice_date: content.date,
      notes: noteFor(content.reference),
      ...client,
      ...(b.address ? { client_street: b.address } : {}),
      ...(b.postalCode ? { client_post_code: b.postalCode } : {}),
      ...(b.city ? { client_city: b.city } : {}),
      ...(b.country ? { client_country: b.country } : {}),
      services: content.lines.map((l) => ({ name: l.name, quantity: l.quantity, gross_price: l.grossTotal, tax_symbol: l.vatRate === null ? 'zw' : String(l.vatRate) })),
    },
  }
}

export function infaktAdapter(config: InfaktConfig, fetchImpl: FetchLike = fetch): InvoicingAdapter {
  const base = config.baseUrl.replace(/\/$/, '')
  const headers = { 'X-inFakt-ApiKey': config.apiKey, Accept: 'application/json' }
  const getJson = async (path: string) => {
    const res = await callSystem(fetchImpl, SYSTEM, `${base}${path}`, { headers })
    return { res, json: await readJson(res, SYSTEM) }
  }

  return {
    provider: 'infakt',

    async create(content) {
      const res = await callSystem(fetchImpl, SYSTEM, `${base}/invoices.json`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify(infaktInvoiceBody(content)),
      })
      const json = await readJson(res, SYSTEM)
      if (!res.ok) throw statusError(SYSTEM, res.status, errorDetail(json))
      return issued(json)
    },

    async findByReference(reference) {
      const { res, json } = await getJson(`/invoices.json?${new URLSearchParams({ 'q[notes_cont]': reference, limit: '10' })}`)
      if (!res.ok) throw statusError(SYSTEM, res.status, errorDetail(json))
      const entities = ((json as { entities?: InfaktInvoice[] } | null)?.entities ?? []).filter((inv) => inv.notes === noteFor(reference))
      return entities[0] ? issued(entities[0]) : null
    },

    async get(externalId) {
      const { res, json } = await getJson(`/invoices/${encodeURIComponent(externalId)}.json`)
      if (res.status === 404) return null
      if (!res.ok) throw statusError(SYSTEM, res.status, errorDetail(json))
      return issued(json)
    },

    async pdf(externalId) {
      return readPdf(await callSystem(fetchImpl, SYSTEM, `${base}/invoices/${encodeURIComponent(externalId)}/pdf.json?document_type=original`, { headers: { 'X-inFakt-ApiKey': config.apiKey, Accept: 'application/pdf' } }), SYSTEM)
    },

    async testConnection() {
      const { res, json } = await getJson('/invoices.json?limit=1')
      if (!res.ok) throw statusError(SYSTEM, res.status, errorDetail(json))
    },
  }
}
