// Shared state of the invoicing system peers (Fakturownia, inFakt, iFirma): accounts, issued
// invoices (numbered per account and month like "1/11/2026"), and injected failures of the next
// creates. Control (development and tests only):
//   GET    /_peer/invoicing/invoices?system=&account=   what was issued (body parsed)
//   POST   /_peer/invoicing/accounts {system, login, secret}
//   POST   /_peer/invoicing/faults {system, count, status}   the next `count` creates fail with `status`
//   DELETE /_peer/invoicing/faults
import { Hono } from 'hono'
import { z } from 'zod'
import { zodJson } from '../../shared/zod-json.ts'
import type { PeersEnv, PeersHono } from './env.ts'

export const INVOICING_SYSTEMS = ['fakturownia', 'infakt', 'ifirma'] as const
export type InvoicingSystem = (typeof INVOICING_SYSTEMS)[number]

export type PeerInvoice = { id: number; system: InvoicingSystem; account: string; reference: string | null; number: string; token: string; body: string; gross_total: number; issue_date: string; created_at: number }

/** The stored secret of an account, or null. */
export async function accountSecret(env: PeersEnv, system: InvoicingSystem, login: string) {
  const row = await env.PEERS_DB.prepare('SELECT secret FROM invoicing_accounts WHERE system = ? AND login = ?').bind(system, login).first<{ secret: string }>()
  return row?.secret ?? null
}

/** Constant-time comparison of two strings (credentials). */
export function sameSecret(a: string, b: string) {
  const x = new TextEncoder().encode(a)
  const y = new TextEncoder().encode(b)
  let diff = x.length ^ y.length
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0)
  return diff === 0
}

/** Takes one pending failure of the system's creates, if any: its HTTP status. */
export async function takeCreateFault(env: PeersEnv, system: InvoicingSystem) {
  const row = await env.PEERS_DB.prepare('UPDATE invoicing_faults SET remaining = remaining - 1 WHERE system = ? AND remaining > 0 RETURNING status').bind(system).first<{ status: number }>()
  return row?.status ?? null
}

export async function insertInvoice(env: PeersEnv, input: { system: InvoicingSystem; account: string; reference: string | null; body: unknown; grossTotal: number; issueDate: string; prefix?: string }) {
  const [year, month] = input.issueDate.split('-')
  const count = await env.PEERS_DB.prepare("SELECT count(*) AS n FROM invoicing_invoices WHERE system = ? AND account = ? AND substr(issue_date, 1, 7) = ?")
    .bind(input.system, input.account, `${year}-${month}`)
    .first<{ n: number }>()
  const number = `${input.prefix ?? ''}${(count?.n ?? 0) + 1}/${Number(month)}/${year}`
  const token = crypto.randomUUID().replace(/-/g, '')
  return (await env.PEERS_DB.prepare('INSERT INTO invoicing_invoices (system, account, reference, number, token, body, gross_total, issue_date, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *')
    .bind(input.system, input.account, input.reference, number, token, JSON.stringify(input.body), input.grossTotal, input.issueDate, Date.now())
    .first<PeerInvoice>())!
}

export async function getInvoice(env: PeersEnv, system: InvoicingSystem, account: string, id: number) {
  return env.PEERS_DB.prepare('SELECT * FROM invoicing_invoices WHERE system = ? AND account = ? AND id = ?').bind(system, account, id).first<PeerInvoice>()
}

export async function listInvoices(env: PeersEnv, system: InvoicingSystem, account: string, filter: { reference?: string; referenceContains?: string; issueDate?: string } = {}) {
  const where = ['system = ?', 'account = ?']
  const binds: unknown[] = [system, account]
  if (filter.reference !== undefined) (where.push('reference = ?'), binds.push(filter.reference))
  if (filter.referenceContains !== undefined) (where.push("instr(coalesce(reference, ''), ?) > 0"), binds.push(filter.referenceContains))
  if (filter.issueDate !== undefined) (where.push('issue_date = ?'), binds.push(filter.issueDate))
  const { results } = await env.PEERS_DB.prepare(`SELECT * FROM invoicing_invoices WHERE ${where.join(' AND ')} ORDER BY id`)
    .bind(...binds)
    .all<PeerInvoice>()
  return results
}

/** A one-page PDF naming the invoice (ASCII only), for the systems' PDF downloads. */
export function invoicePdf(row: PeerInvoice) {
  const text = `Faktura ${row.number} - ${(row.gross_total / 100).toFixed(2)}`.replace(/[^\x20-\x7e]/g, '?').replace(/[()\\]/g, '')
  const stream = `BT /F1 18 Tf 72 760 Td (${text}) Tj ET`
  const pdf = [
    '%PDF-1.4',
    '1 0 obj <</Type/Catalog/Pages 2 0 R>> endobj',
    '2 0 obj <</Type/Pages/Kids[3 0 R]/Count 1>> endobj',
    '3 0 obj <</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>> endobj',
    `4 0 obj <</Length ${stream.length}>> stream\n${stream}\nendstream endobj`,
    '5 0 obj <</Type/Font/Subtype/Type1/BaseFont/Helvetica>> endobj',
    'trailer <</Root 1 0 R>>',
    '%%EOF',
  ].join('\n')
  return new Response(pdf, { headers: { 'Content-Type': 'application/pdf' } })
}

/** "123.45" / 123.45 → 12345, exactly (rejects more than 2 decimals). */
export function decimalToMinor(value: unknown): number | null {
  const s = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : ''
  const m = /^(-?)(\d{1,10})(?:\.(\d{1,2}))?$/.exec(s)
  if (!m) return null
  const minor = Number(m[2]) * 100 + Number((m[3] ?? '0').padEnd(2, '0'))
  return m[1] ? -minor : minor
}

export const invoicingControl = new Hono<PeersHono>()

invoicingControl.get('/invoices', async (c) => {
  const system = c.req.query('system') as InvoicingSystem
  if (!INVOICING_SYSTEMS.includes(system)) return c.json({ error: 'system?' }, 400)
  const account = c.req.query('account')
  const { results } = account
    ? await c.env.PEERS_DB.prepare('SELECT * FROM invoicing_invoices WHERE system = ? AND account = ? ORDER BY id').bind(system, account).all<PeerInvoice>()
    : await c.env.PEERS_DB.prepare('SELECT * FROM invoicing_invoices WHERE system = ? ORDER BY id').bind(system).all<PeerInvoice>()
  return c.json({ invoices: results.map((r) => ({ ...r, body: JSON.parse(r.body) as unknown })) })
})

const accountInput = z.object({ system: z.enum(INVOICING_SYSTEMS), login: z.string().min(1), secret: z.string().min(1) })

invoicingControl.post('/accounts', zodJson(accountInput, (c) => c.json({ error: 'system, login, secret' }, 400)), async (c) => {
  const { system, login, secret } = c.req.valid('json')
  await c.env.PEERS_DB.prepare('INSERT INTO invoicing_accounts (system, login, secret) VALUES (?, ?, ?) ON CONFLICT (system, login) DO UPDATE SET secret = excluded.secret').bind(system, login, secret).run()
  return c.json({ ok: true }, 201)
})

const faultInput = z.object({ system: z.enum(INVOICING_SYSTEMS), count: z.number().int().min(0).max(100), status: z.number().int().min(400).max(599) })

invoicingControl.post('/faults', zodJson(faultInput, (c) => c.json({ error: 'system, count, status' }, 400)), async (c) => {
  const { system, count, status } = c.req.valid('json')
  await c.env.PEERS_DB.prepare('INSERT INTO invoicing_faults (system, remaining, status) VALUES (?, ?, ?) ON CONFLICT (system) DO UPDATE SET remaining = excluded.remaining, status = excluded.status').bind(system, count, status).run()
  return c.json({ ok: true }, 201)
})

invoicingControl.delete('/faults', async (c) => {
  await c.env.PEERS_DB.prepare('DELETE FROM invoicing_faults').run()
  return c.body(null, 204)
})
