// iFirma API peer (development and tests), per api.ifirma.pl. The real API is
// https://www.ifirma.pl/iapi/…; here /ifirma/iapi/…:
//   POST /ifirma/iapi/fakturakraj.json             domestic VAT invoice → {response: {Kod: 0, Informacja, Identyfikator}}
//   GET  /ifirma/iapi/fakturakraj/:id.json         → {response: {Kod: 0, FakturaId, PelnyNumer, …}} | HTTP 404 (:id.pdf → the PDF)
//   GET  /ifirma/iapi/fakturakraj/list.json        ?dataOd=&dataDo=&limit= → {response: {Kod: 0, Wynik: [...]}}
// Auth ("Nagłówek autoryzacji"): `Authentication: IAPIS user={login}, hmac-sha1={hex}` where hex =
// HMAC-SHA1(key bytes from its hex form, url-without-query + login + "faktura" + body). Failures
// answer with the documented codes in the body (FAQ): 400 bad header, 401 unknown login, 403 bad
// hash, 201 validation errors; 100 technical problem (here only as an injected fault, HTTP 500).
import { createHmac } from 'node:crypto'
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import type { PeersHono } from './env.ts'
import { accountSecret, decimalToMinor, getInvoice, insertInvoice, invoicePdf, listInvoices, sameSecret, takeCreateFault, type PeerInvoice } from './invoicing-peer.ts'

const KEY_NAME = 'faktura'
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/)
const money = z.number().nonnegative().refine((n) => decimalToMinor(n) !== null, 'max 2 decimal places')

const position = z.union([
  z.object({ TypStawkiVat: z.literal('PRC'), StawkaVat: z.union([z.literal(0.23), z.literal(0.08), z.literal(0.05), z.literal(0)]), Ilosc: z.number().int().positive(), CenaJednostkowa: money, NazwaPelna: z.string().trim().min(1).max(400), Jednostka: z.string().min(1).max(10) }),
  z.object({ TypStawkiVat: z.enum(['ZW', 'NP']), Ilosc: z.number().int().positive(), CenaJednostkowa: money, NazwaPelna: z.string().trim().min(1).max(400), Jednostka: z.string().min(1).max(10) }),
])

const invoiceInput = z.object({
  Zaplacono: money,
  ZaplaconoNaDokumencie: money,
  LiczOd: z.enum(['NET', 'BRT']),
  DataWystawienia: date,
  DataSprzedazy: date,
  FormatDatySprzedazy: z.enum(['DZN', 'MSC']),
  SposobZaplaty: z.enum(['GTK', 'POB', 'PRZ', 'KAR', 'PZA', 'CZK', 'KOM', 'BAR', 'DOT', 'PAL', 'ALG', 'P24', 'TPA', 'ELE']),
  RodzajPodpisuOdbiorcy: z.enum(['OUP', 'UPO', 'BPO', 'BWO']),
  WidocznyNumerGios: z.boolean(),
  Numer: z.number().int().nullable(),
  Uwagi: z.string().max(1000).optional(),
  Pozycje: z.array(position).min(1),
  Kontrahent: z.object({
    Nazwa: z.string().trim().min(1).max(200),
    NIP: z.string().max(13).optional(),
    PrefiksUE: z.string().length(2).optional(),
    Ulica: z.string().max(65).optional(),
    KodPocztowy: z.string().min(1).max(16),
    Miejscowosc: z.string().trim().min(1).max(65),
    Kraj: z.string().optional(),
    Email: z.string().email().optional(),
    OsobaFizyczna: z.boolean().optional(),
  }),
})

type Ctx = Context<PeersHono & { Variables: { login: string } }>

const answer = (c: Ctx, response: Record<string, unknown>, status = 200) => c.json({ response }, status as 200)

export const ifirmaPeer = new Hono<PeersHono & { Variables: { login: string } }>()

ifirmaPeer.use('*', async (c: Ctx, next) => {
  const header = c.req.header('Authentication') ?? ''
  const m = /^IAPIS user=([^,\s]+),\s*hmac-sha1=([0-9a-f]{40})$/i.exec(header.trim())
  if (!m) return answer(c, { Kod: 400, Informacja: 'Niepoprawny nagłówek autoryzacji' })
  const [, login, hash] = m
  const keyHex = await accountSecret(c.env, 'ifirma', login!)
  if (keyHex === null) return answer(c, { Kod: 401, Informacja: 'Niepoprawny login użytkownika' })
  const url = c.req.url.split('?')[0]!
  const body = c.req.method === 'GET' ? '' : new TextDecoder().decode(await c.req.raw.clone().arrayBuffer())
  const expected = createHmac('sha1', Buffer.from(keyHex, 'hex')).update(url + login + KEY_NAME + body, 'utf8').digest('hex')
  if (!sameSecret(expected, hash!.toLowerCase())) return answer(c, { Kod: 403, Informacja: 'Niepoprawny hash bądź kod wiadomości' })
  c.set('login', login!)
  return next()
})

function view(row: PeerInvoice) {
  const body = JSON.parse(row.body) as z.infer<typeof invoiceInput>
  return { FakturaId: row.id, PelnyNumer: row.number, DataWystawienia: body.DataWystawienia, Brutto: row.gross_total / 100, Uwagi: body.Uwagi ?? '', NazwaKontrahenta: body.Kontrahent.Nazwa, NIPKontrahenta: body.Kontrahent.NIP ?? '' }
}

ifirmaPeer.post('/iapi/fakturakraj.json', async (c) => {
  if (!(c.req.header('Content-Type') ?? '').toLowerCase().startsWith('application/json')) return answer(c, { Kod: 102, Informacja: 'Brak lub niepoprawnie określony typ zawartości żądania' })
  const fault = await takeCreateFault(c.env, 'ifirma')
  if (fault) return answer(c, { Kod: 100, Informacja: 'Problem techniczny' }, fault)
  const parsed = invoiceInput.safeParse(await c.req.json().catch(() => null))
  if (!parsed.success) return answer(c, { Kod: 201, Informacja: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') })
  const invoice = parsed.data
  const gross = invoice.Pozycje.reduce((s, p) => s + p.Ilosc * decimalToMinor(p.CenaJednostkowa)!, 0)
  if (decimalToMinor(invoice.Zaplacono)! > gross) return answer(c, { Kod: 201, Informacja: 'Zaplacono: kwota większa niż razem brutto faktury' })
  const row = await insertInvoice(c.env, { system: 'ifirma', account: c.get('login'), reference: invoice.Uwagi ?? null, body: invoice, grossTotal: gross, issueDate: invoice.DataWystawienia })
  return answer(c, { Kod: 0, Informacja: 'Faktura została pomyślnie wystawiona.', Identyfikator: row.id })
})

ifirmaPeer.get('/iapi/fakturakraj/list.json', async (c) => {
  const from = c.req.query('dataOd')
  const to = c.req.query('dataDo')
  const limit = Math.min(Number(c.req.query('limit') ?? 20) || 20, 100)
  const rows = (await listInvoices(c.env, 'ifirma', c.get('login'))).filter((r) => (!from || r.issue_date >= from) && (!to || r.issue_date <= to))
  return answer(c, { Kod: 0, Wynik: rows.slice(0, limit).map(view) })
})

ifirmaPeer.get('/iapi/fakturakraj/:file', async (c) => {
  const [, id, ext] = /^(\d+)\.(json|pdf)$/.exec(c.req.param('file')) ?? []
  const row = id ? await getInvoice(c.env, 'ifirma', c.get('login'), Number(id)) : null
  if (!row) return answer(c, { Kod: 404, Informacja: 'Nie znaleziono faktury' }, 404)
  return ext === 'pdf' ? invoicePdf(row) : answer(c, { Kod: 0, ...view(row) })
})
