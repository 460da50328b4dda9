// Fakturownia API peer (development and tests), per github.com/fakturownia/api. The real API lives
// at https://{account}.fakturownia.pl; here the account is the first path segment:
//   POST /fakturownia/:account/invoices.json       {api_token, invoice: {...}} → 201 invoice
//   GET  /fakturownia/:account/invoices.json       ?api_token=&oid=&page=&per_page= → [invoice]
//   GET  /fakturownia/:account/invoices/:id.json   ?api_token= → invoice | 404 (and :id.pdf → the PDF)
// Auth: `api_token` in the JSON body (POST) or the query (GET); wrong or missing → 401
// {"code":"error","message":"You must be logged in to gain access to this site"}. Validation →
// 422 {"code":"error","message":{field: [..]}}; `oid_unique: "yes"` refuses a second invoice with
// the same oid. `tax` is a percent (23, 8, 5, 0) or "zw"/"np"; total_price_gross a decimal.
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import type { PeersHono } from './env.ts'
import { accountSecret, decimalToMinor, getInvoice, insertInvoice, invoicePdf, listInvoices, sameSecret, takeCreateFault, type PeerInvoice } from './invoicing-peer.ts'

const UNAUTHORIZED = { code: 'error', message: 'You must be logged in to gain access to this site' }
const TAXES = new Set(['23', '22', '8', '7', '5', '3', '0', 'zw', 'np'])
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/)

const invoiceInput = z.object({
  kind: z.enum(['vat', 'proforma', 'bill', 'receipt', 'advance', 'final', 'correction']),
  number: z.string().nullish(),
  sell_date: date,
  issue_date: date,
  payment_to: date.optional(),
  payment_type: z.string().optional(),
  status: z.enum(['issued', 'sent', 'paid', 'partial', 'rejected']).optional(),
  paid: z.union([z.string(), z.number()]).optional(),
  currency: z.string().regex(/^[A-Z]{3}$/).optional(),
  oid: z.string().max(255).optional(),
  oid_unique: z.enum(['yes', 'no']).optional(),
  buyer_company: z.boolean().optional(),
  buyer_name: z.string().trim().min(1),
  buyer_tax_no: z.string().optional(),
  buyer_email: z.string().email().optional(),
  buyer_street: z.string().optional(),
  buyer_post_code: z.string().optional(),
  buyer_city: z.string().optional(),
  buyer_country: z.string().optional(),
  positions: z
    .array(
      z.object({
        name: z.string().trim().min(1),
        quantity: z.union([z.number().positive(), z.string().regex(/^\d+(\.\d+)?$/)]),
        total_price_gross: z.union([z.string(), z.number()]),
        tax: z.union([z.number(), z.string()]).refine((t) => TAXES.has(String(t)), 'is not included in the list'),
      }),
    )
    .min(1),
})

type Ctx = Context<PeersHono>

function view(c: Ctx, account: string, row: PeerInvoice) {
  const body = JSON.parse(row.body) as z.infer<typeof invoiceInput>
  const gross = row.gross_total
  return {
    id: row.id,
    kind: body.kind,
    number: row.number,
    sell_date: body.sell_date,
    issue_date: body.issue_date,
    price_gross: `${Math.trunc(gross / 100)}.${String(gross % 100).padStart(2, '0')}`,
    currency: body.currency ?? 'PLN',
    status: body.status ?? 'issued',
    oid: body.oid ?? '',
    buyer_name: body.buyer_name,
    buyer_tax_no: body.buyer_tax_no ?? null,
    token: row.token,
    view_url: `https://${account}.fakturownia.pl/invoice/${row.token}`,
    positions: body.positions,
  }
}

async function authorized(c: Ctx, token: unknown) {
  const account = c.req.param('account') ?? ''
  const secret = await accountSecret(c.env, 'fakturownia', account)
  return secret !== null && typeof token === 'string' && sameSecret(token, secret)
}

export const fakturowniaPeer = new Hono<PeersHono>()

fakturowniaPeer.post('/:account/invoices.json', async (c) => {
  const json = (await c.req.json().catch(() => null)) as { api_token?: unknown; invoice?: unknown } | null
  if (!(await authorized(c, json?.api_token))) return c.json(UNAUTHORIZED, 401)
  const fault = await takeCreateFault(c.env, 'fakturownia')
  if (fault) return c.json({ code: 'error', message: 'Internal Server Error' }, fault as 500)
  const parsed = invoiceInput.safeParse(json?.invoice)
  if (!parsed.success) {
    const message: Record<string, string[]> = {}
    for (const issue of parsed.error.issues) (message[issue.path.join('.') || 'invoice'] ??= []).push(issue.code === 'invalid_type' && issue.received === 'undefined' ? "can't be blank" : issue.message)
    return c.json({ code: 'error', message }, 422)
  }
  const invoice = parsed.data
  const amounts = invoice.positions.map((p) => decimalToMinor(p.total_price_gross))
  if (amounts.some((a) => a === null)) return c.json({ code: 'error', message: { 'positions.total_price_gross': ['is not a number'] } }, 422)
  const account = c.req.param('account')
  if (invoice.oid && invoice.oid_unique === 'yes' && (await listInvoices(c.env, 'fakturownia', account, { reference: invoice.oid })).length) {
    return c.json({ code: 'error', message: { oid: ['has already been taken'] } }, 422)
  }
  const row = await insertInvoice(c.env, { system: 'fakturownia', account, reference: invoice.oid ?? null, body: invoice, grossTotal: amounts.reduce((s: number, a) => s + a!, 0), issueDate: invoice.issue_date, prefix: 'FV ' })
  return c.json(view(c, account, row), 201)
})

fakturowniaPeer.get('/:account/invoices.json', async (c) => {
  if (!(await authorized(c, c.req.query('api_token')))) return c.json(UNAUTHORIZED, 401)
  const account = c.req.param('account')
  const oid = c.req.query('oid')
  const perPage = Math.min(Number(c.req.query('per_page') ?? 25) || 25, 100)
  const page = Math.max(Number(c.req.query('page') ?? 1) || 1, 1)
  const rows = await listInvoices(c.env, 'fakturownia', account, oid ? { reference: oid } : {})
  return c.json(rows.slice((page - 1) * perPage, page * perPage).map((r) => view(c, account, r)))
})

fakturowniaPeer.get('/:account/invoices/:file', async (c) => {
  if (!(await authorized(c, c.req.query('api_token')))) return c.json(UNAUTHORIZED, 401)
  const [, id, ext] = /^(\d+)\.(json|pdf)$/.exec(c.req.param('file')) ?? []
  const account = c.req.param('account')
  const row = id ? await getInvoice(c.env, 'fakturownia', account, Number(id)) : null
  if (!row) return c.json({ code: 'error', message: 'Not found' }, 404)
  return ext === 'pdf' ? invoicePdf(row) : c.json(view(c, account, row))
})
