// Fakturownia (fakturownia.pl) REST API, as documented in github.com/fakturownia/api:
//   - every account is its own host, https://{account}.fakturownia.pl; the API token ("Ustawienia
//     → Ustawienia konta → Integracja → Kod autoryzacyjny API") goes in the JSON body as
//     `api_token` on POST and as the `api_token` query parameter on GET;
//   - POST /invoices.json {api_token, invoice: {kind: "vat", sell_date, issue_date, payment_to,
//     buyer_name, buyer_tax_no, buyer_email, buyer_street, buyer_post_code, buyer_city,
//     buyer_country, currency, status, paid, positions: [{name, tax, total_price_gross, quantity}]}}
//     answers 201 with the invoice (id, number, view_url, token, price_gross, …);
//   - `oid` is the documented order id field and `oid_unique: "yes"` makes Fakturownia refuse a
//     second invoice with the same oid: our reference (the transaction hash) goes there, and
//     GET /invoices.json?oid=… finds it again (assumption: the list takes `oid` as a filter like its
//     other attributes; the local peer implements it so);
//   - GET /invoices/{id}.json, and the PDF at GET /invoices/{id}.pdf?api_token=…; a wrong token answers 401 {"code":"error","message":"You must be
//     logged in to gain access to this site"}, validation errors 422 {"code":"error","message":{field: [..]}}.
// `tax` is the rate in percent, or "zw" (exempt); amounts are decimal strings with a dot.
import { callSystem, readJson, readPdf, statusError, InvoicingError, type FetchLike, type InvoicingAdapter, type IssuedInvoice } from './adapter.server.ts'
import { toDecimal, type InvoiceContent } from './invoice-content.ts'

const SYSTEM = 'Fakturownia'

export type FakturowniaConfig = {
  /** https://{account}.fakturownia.pl, or the dev peer's /fakturownia/{account}. */
  baseUrl: string
  apiToken: string
}

export const fakturowniaBaseUrl = (account: string) => `https://${account}.fakturownia.pl`

type FakturowniaInvoice = { id?: number | string; number?: string; view_url?: string; oid?: string }

function issued(json: unknown): IssuedInvoice {
  const inv = (json ?? {}) as FakturowniaInvoice
  if (inv.id === undefined || !inv.number) throw new InvoicingError('unavailable', `${SYSTEM}: the answer has no invoice id or number`)
  return { externalId: String(inv.id), number: inv.number, url: inv.view_url ?? null }
}

function errorDetail(json: unknown) {
  const message = (json as { message?: unknown } | null)?.message
  if (typeof message === 'string') return message
  if (message && typeof message === 'object') {
    return Object.entries(message as Record<string, unknown>)
      .map(([field, v]) => `${field}: ${Array.isArray(v) ? v.join(', ') : String(v)}`)
      .join('; ')
  }
  return ''
}

/** The body of POST /invoices.json for our content. */
export function fakturowniaInvoiceBody(content: InvoiceContent, apiToken: string) {
  const b = content.buyer
  return {
    api_token: apiToken,
    invoice: {
      kind: 'vat',
      sell_date: content.date,
      issue_date: content.date,
      payment_to: content.date,
      payment_type: 'transfer',
      status: 'paid',
      paid: toDecimal(content.totalGross),
      currency: content.currency,
      oid: content.reference,
      oid_unique: 'yes',
      buyer_company: b.kind === 'company',
      buyer_name: b.name,
      ...(b.vatNumber ? { buyer_tax_no: b.vatNumber } : {}),
      ...(b.email ? { buyer_email: b.email } : {}),
      ...(b.address ? { buyer_street: b.address } : {}),
      ...(b.postalCode ? { buyer_post_code: b.postalCode } : {}),
      ...(b.city ? { buyer_city: b.city } : {}),
      ...(b.country ? { buyer_country: b.country } : {}),
      positions: content.lines.map((l) => ({ name: l.name, quantity: l.quantity, total_price_gross: toDecimal(l.grossTotal), tax: l.vatRate === null ? 'zw' : l.vatRate })),
    },
  }
}

export function fakturowniaAdapter(config: FakturowniaConfig, fetchImpl: FetchLike = fetch): InvoicingAdapter {
  const base = config.baseUrl.replace(/\/$/, '')
  const withToken = (path: string, params: Record<string, string> = {}) => `${base}${path}?${new URLSearchParams({ ...params, api_token: config.apiToken })}`
  const getJson = async (url: string) => {
    const res = await callSystem(fetchImpl, SYSTEM, url, { headers: { Accept: 'application/json' } })
    const json = await readJson(res, SYSTEM)
    return { res, json }
  }

  const adapter: InvoicingAdapter = {
    provider: 'fakturownia',

    async create(content) {
      const res = await callSystem(fetchImpl, SYSTEM, `${base}/invoices.json`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(fakturowniaInvoiceBody(content, config.apiToken)),
      })
      const json = await readJson(res, SYSTEM)
      if (res.ok) return issued(json)
      // oid_unique: an earlier attempt got through; that one is ours.
      if (res.status === 422 && /\boid\b/.test(errorDetail(json))) {
        const existing = await adapter.findByReference(content.reference, content)
        if (existing) return existing
      }
      throw statusError(SYSTEM, res.status, errorDetail(json))
    },

    async findByReference(reference) {
      const { res, json } = await getJson(withToken('/invoices.json', { oid: reference, period: 'all' }))
      if (!res.ok) throw statusError(SYSTEM, res.status, errorDetail(json))
      const list = Array.isArray(json) ? (json as FakturowniaInvoice[]) : []
      const found = list.find((inv) => inv.oid === reference)
      return found ? issued(found) : null
    },

    async get(externalId) {
      const { res, json } = await getJson(withToken(`/invoices/${encodeURIComponent(externalId)}.json`))
      if (res.status === 404) return null
      if (!res.ok) throw statusError(SYSTEM, res.status, errorDetail(json))
      return issued(json)
    },

    async pdf(externalId) {
      return readPdf(await callSystem(fetchImpl, SYSTEM, withToken(`/invoices/${encodeURIComponent(externalId)}.pdf`), { headers: { Accept: 'application/pdf' } }), SYSTEM)
    },

    async testConnection() {
      const { res, json } = await getJson(withToken('/invoices.json', { page: '1', per_page: '1' }))
      if (!res.ok) throw statusError(SYSTEM, res.status, errorDetail(json))
    },
  }
  return adapter
}
