// inFakt API v3 peer (development and tests), per infakt.pl/developers ("Ogólne informacje",
// "Faktury"). The real endpoint is https://api.infakt.pl/v3; here /infakt/v3:
//   POST /infakt/v3/invoices.json        {invoice: {...}} → 201 invoice
//   GET  /infakt/v3/invoices.json        ?q[notes_cont]=…&q[notes_eq]=…&limit=&offset= → {metainfo, entities}
//   GET  /infakt/v3/invoices/:id.json    → invoice | 404
//   GET  /infakt/v3/invoices/:id/pdf.json?document_type=original → the PDF
// Auth: the `X-inFakt-ApiKey` header; missing or unknown → 401. Money in grosze (integers):
// services[].gross_price, paid_price. tax_symbol: "23", "8", "5", "0", "zw", "np". Validation →
// 422 {"errors": {field: [..]}}. The account is the API key (one key, one inFakt account).
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import type { PeersHono } from './env.ts'
import { accountSecret, getInvoice, insertInvoice, invoicePdf, listInvoices, sameSecret, takeCreateFault, type PeerInvoice } from './invoicing-peer.ts'

const TAX_SYMBOLS = ['23', '22', '8', '7', '5', '4', '3', '0', 'zw', 'np', 'oo'] as const
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/)

const invoiceInput = z
  .object({
    kind: z.enum(['vat', 'proforma', 'margin', 'final', 'advance']).default('vat'),
    currency: z.string().regex(/^[A-Z]{3}$/).default('PLN'),
    payment_method: z.enum(['transfer', 'cash', 'card', 'barter', 'check', 'bill_of_sale', 'delivery', 'compensation', 'accredited', 'paypal', 'instalment_sale', 'payu', 'tpay', 'przelewy24', 'dotpay', 'other']).optional(),
    paid_price: z.number().int().nonnegative().optional(),
    paid_date: date.optional(),
    sale_date: date.optional(),
    invoice_date: date.optional(),
    notes: z.string().max(1000).optional(),
    client_company_name: z.string().optional(),
    client_first_name: z.string().optional(),
    client_last_name: z.string().optional(),
    client_tax_code: z.string().optional(),
    client_business_activity_kind: z.enum(['private_person', 'self_employed', 'other_business']).optional(),
    client_street: z.string().optional(),
    client_post_code: z.string().optional(),
    client_city: z.string().optional(),
    client_country: z.string().optional(),
    services: z
      .array(
        z.object({
          name: z.string().trim().min(1),
          quantity: z.number().positive().default(1),
          gross_price: z.number().int().nonnegative(),
          tax_symbol: z.enum(TAX_SYMBOLS),
          unit: z.string().optional(),
        }),
      )
      .min(1),
  })
  .refine((i) => !!(i.client_company_name?.trim() || i.client_first_name?.trim() || i.client_last_name?.trim()), { message: 'client name is required', path: ['client_company_name'] })
  .refine((i) => i.client_business_activity_kind === 'private_person' || !i.client_company_name || !!i.client_tax_code, { message: 'NIP is required for a company', path: ['client_tax_code'] })

type Ctx = Context<PeersHono & { Variables: { apiKey: string } }>

function view(row: PeerInvoice) {
  const body = JSON.parse(row.body) as z.infer<typeof invoiceInput>
  return {
    id: row.id,
    uuid: row.token,
    number: row.number,
    kind: body.kind,
    currency: body.currency,
    gross_price: row.gross_total,
    paid_price: body.paid_price ?? 0,
    status: (body.paid_price ?? 0) >= row.gross_total ? 'paid' : 'sent',
    invoice_date: body.invoice_date ?? row.issue_date,
    sale_date: body.sale_date ?? row.issue_date,
    notes: body.notes ?? '',
    client_company_name: body.client_company_name ?? null,
    client_first_name: body.client_first_name ?? null,
    client_last_name: body.client_last_name ?? null,
    client_tax_code: body.client_tax_code ?? null,
    services: body.services,
  }
}

export const infaktPeer = new Hono<PeersHono & { Variables: { apiKey: string } }>()

infaktPeer.use('*', async (c: Ctx, next) => {
  const key = c.req.header('X-inFakt-ApiKey') ?? ''
  const secret = key ? await accountSecret(c.env, 'infakt', key) : null
  if (secret === null || !sameSecret(key, secret)) return c.json({ error: 'Nieprawidłowy klucz API' }, 401)
  c.set('apiKey', key)
  return next()
})

infaktPeer.post('/v3/invoices.json', async (c) => {
  const fault = await takeCreateFault(c.env, 'infakt')
  if (fault) return c.json({ error: 'Wystąpił błąd serwera' }, fault as 500)
  const json = (await c.req.json().catch(() => null)) as { invoice?: unknown } | null
  const parsed = invoiceInput.safeParse(json?.invoice)
  if (!parsed.success) {
    const errors: Record<string, string[]> = {}
    for (const issue of parsed.error.issues) (errors[issue.path.join('.') || 'invoice'] ??= []).push(issue.message)
    return c.json({ errors }, 422)
  }
  const invoice = parsed.data
  const ref = invoice.notes ?? null
  const issueDate = invoice.invoice_date ?? new Date().toISOString().slice(0, 10)
  const row = await insertInvoice(c.env, { system: 'infakt', account: c.get('apiKey'), reference: ref, body: invoice, grossTotal: invoice.services.reduce((s, l) => s + l.gross_price, 0), issueDate })
  return c.json(view(row), 201)
})

infaktPeer.get('/v3/invoices.json', async (c) => {
  const eq = c.req.query('q[notes_eq]')
  const cont = c.req.query('q[notes_cont]')
  const limit = Math.min(Number(c.req.query('limit') ?? 10) || 10, 100)
  const offset = Math.max(Number(c.req.query('offset') ?? 0) || 0, 0)
  const rows = await listInvoices(c.env, 'infakt', c.get('apiKey'), { ...(eq !== undefined ? { reference: eq } : {}), ...(cont !== undefined ? { referenceContains: cont } : {}) })
  return c.json({ metainfo: { count: Math.min(limit, Math.max(rows.length - offset, 0)), total_count: rows.length, next: null, previous: null }, entities: rows.slice(offset, offset + limit).map(view) })
})

infaktPeer.get('/v3/invoices/:id/pdf.json', async (c) => {
  const row = /^\d+$/.test(c.req.param('id')) ? await getInvoice(c.env, 'infakt', c.get('apiKey'), Number(c.req.param('id'))) : null
  if (!row) return c.json({ error: 'Nie znaleziono' }, 404)
  return invoicePdf(row)
})

infaktPeer.get('/v3/invoices/:file', async (c) => {
  const id = /^(\d+)\.json$/.exec(c.req.param('file'))?.[1]
  const row = id ? await getInvoice(c.env, 'infakt', c.get('apiKey'), Number(id)) : null
  if (!row) return c.json({ error: 'Nie znaleziono' }, 404)
  return c.json(view(row))
})
