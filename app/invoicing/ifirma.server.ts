// iFirma (ifirma.pl) API, as documented at api.ifirma.pl:
//   - auth ("Nagłówek autoryzacji"): header `Authentication: IAPIS user={login}, hmac-sha1={hash}`
//     with hash = HMAC-SHA1(key, url + login + keyName + requestContent) in hex, where key is the
//     generated key given in hex and used as its bytes (EAB0D8ACF3308F3B = 8 bytes), keyName is
//     the key's identifier ("faktura" for invoices), url is the address without query parameters
//     and requestContent the body (empty for GET);
//   - POST https://www.ifirma.pl/iapi/fakturakraj.json (domestic VAT invoice): Zaplacono,
//     ZaplaconoNaDokumencie, LiczOd "BRT" (from gross), DataWystawienia, DataSprzedazy,
//     FormatDatySprzedazy "DZN", SposobZaplaty "ELE" (electronic payment), RodzajPodpisuOdbiorcy
//     "BPO", Uwagi, Pozycje [{StawkaVat 0.23, Ilosc, CenaJednostkowa, NazwaPelna, Jednostka,
//     TypStawkiVat "PRC" | "ZW"}], Kontrahent {Nazwa, NIP, PrefiksUE, Ulica, KodPocztowy,
//     Miejscowosc, Kraj, Email, OsobaFizyczna};
//   - answers {"response": {"Kod": 0, "Informacja": …, "Identyfikator": id}}; Kod ≠ 0 is an error
//     (FAQ): 100 technical, 101/102 encoding/content type, 200/201/202 structure/validation/account
//     settings, 400 bad auth header, 401 bad login, 402 no key generated, 403 bad hash, 499 terms
//     not accepted, 500 no permission;
//   - GET /iapi/fakturakraj/{id}.json (PelnyNumer is the number), /iapi/fakturakraj/{id}.pdf (the
//     PDF, Accept: application/pdf, signed like the rest) and /iapi/fakturakraj/list.json.
// iFirma has no field for an external reference: ours goes in Uwagi ("Zamówienie {hash}") and a
// retry looks for it in the list of that day's invoices (assumption: the list shows Uwagi; the
// local peer implements it so). fakturakraj is for PLN only; CenaJednostkowa is per unit, so a line
// whose total does not divide by its quantity goes as one unit named "… × q" (the amount stays exact).
import { callSystem, readJson, readPdf, statusError, InvoicingError, type FetchLike, type InvoicingAdapter, type IssuedInvoice } from './adapter.server.ts'
import { splitVatNumber, toDecimal, type InvoiceContent } from './invoice-content.ts'

const SYSTEM = 'iFirma'
export const IFIRMA_API_URL = 'https://www.ifirma.pl/iapi'
const KEY_NAME = 'faktura'

export type IfirmaConfig = { baseUrl: string; login: string; invoiceKey: string }

const noteFor = (reference: string) => `Zamówienie ${reference}`

function hexToBytes(hex: string) {
  const clean = hex.trim()
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(clean)) throw new InvoicingError('auth', `${SYSTEM}: the invoice key must be hexadecimal`)
  return Uint8Array.from(clean.match(/../g)!.map((b) => parseInt(b, 16)))
}

/** The documented hash: HMAC-SHA1(key bytes, url + login + keyName + body), lower-case hex. */
export async function ifirmaHash(keyHex: string, url: string, login: string, keyName: string, body: string) {
  const key = await crypto.subtle.importKey('raw', hexToBytes(keyHex), { name: 'HMAC', hash: 'SHA-1' }, false, ['sign'])
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(url + login + keyName + body))
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, '0')).join('')
}

type IfirmaResponse = { Kod?: number; Informacja?: string; Identyfikator?: number | string; PelnyNumer?: string; FakturaId?: number | string; Wynik?: unknown }

function kodError(r: IfirmaResponse) {
  const kod = r.Kod ?? -1
  const text = `${SYSTEM}: ${r.Informacja ?? 'error'} (Kod ${kod})`.slice(0, 500)
  if (kod >= 400 && kod < 500) return new InvoicingError('auth', text)
  if (kod === 500) return new InvoicingError('auth', text)
  if (kod === 100) return new InvoicingError('unavailable', text)
  return new InvoicingError('invalid', text)
}

/** The body of POST fakturakraj.json; throws `unsupported` for what fakturakraj cannot carry. */
export function ifirmaInvoiceBody(content: InvoiceContent) {
  if (content.currency !== 'PLN') throw new InvoicingError('unsupported', `${SYSTEM}: domestic invoices are in PLN only (this sale is in ${content.currency})`)
  const b = content.buyer
  if (!b.postalCode || !b.city) throw new InvoicingError('unsupported', `${SYSTEM}: the buyer's postal code and city are required (no invoice details were given at checkout)`)
  const vat = b.vatNumber ? splitVatNumber(b.vatNumber) : null
  return {
    Zaplacono: Number(toDecimal(content.totalGross)),
    ZaplaconoNaDokumencie: Number(toDecimal(content.totalGross)),
    LiczOd: 'BRT',
    DataWystawienia: content.date,
    DataSprzedazy: content.date,
    FormatDatySprzedazy: 'DZN',
    SposobZaplaty: 'ELE',
    RodzajPodpisuOdbiorcy: 'BPO',
    WidocznyNumerGios: false,
    Numer: null,
    Uwagi: noteFor(content.reference),
    Pozycje: content.lines.map((l) => {
      const even = l.grossTotal % l.quantity === 0
      return {
        ...(l.vatRate === null ? { TypStawkiVat: 'ZW' } : { TypStawkiVat: 'PRC', StawkaVat: Number((l.vatRate / 100).toFixed(2)) }),
        Ilosc: even ? l.quantity : 1,
        CenaJednostkowa: Number(toDecimal(even ? l.grossTotal / l.quantity : l.grossTotal)),
        NazwaPelna: even ? l.name : `${l.name} × ${l.quantity}`,
        Jednostka: 'szt.',
      }
    }),
    Kontrahent: {
      Nazwa: b.name,
      ...(vat ? { NIP: vat.number, ...(vat.prefix && vat.prefix !== 'PL' ? { PrefiksUE: vat.prefix } : {}) } : {}),
      ...(b.address ? { Ulica: b.address } : {}),
      KodPocztowy: b.postalCode,
      Miejscowosc: b.city,
      ...(b.country ? { Kraj: b.country } : {}),
      ...(b.email ? { Email: b.email } : {}),
      OsobaFizyczna: b.kind === 'person',
    },
  }
}

export function ifirmaAdapter(config: IfirmaConfig, fetchImpl: FetchLike = fetch): InvoicingAdapter {
  const base = config.baseUrl.replace(/\/$/, '')

  async function call(method: 'GET' | 'POST', path: string, query: Record<string, string> = {}, body = ''): Promise<IfirmaResponse> {
    const url = `${base}${path}`
    const hash = await ifirmaHash(config.invoiceKey, url, config.login, KEY_NAME, body)
    const qs = new URLSearchParams(query).toString()
    const res = await callSystem(fetchImpl, SYSTEM, qs ? `${url}?${qs}` : url, {
      method,
      headers: { Accept: 'application/json', 'Content-Type': 'application/json; charset=UTF-8', Authentication: `IAPIS user=${config.login}, hmac-sha1=${hash}` },
      ...(method === 'POST' ? { body } : {}),
    })
    if (res.status === 404) return { Kod: 404 }
    const json = (await readJson(res, SYSTEM)) as { response?: IfirmaResponse } | null
    const r = json?.response
    if (!r) throw statusError(SYSTEM, res.status >= 400 ? res.status : 502, 'no response object')
    if (r.Kod !== 0) throw res.status >= 500 || res.status === 429 ? statusError(SYSTEM, res.status, r.Informacja ?? '') : kodError(r)
    return r
  }

  const get = async (externalId: string): Promise<IssuedInvoice | null> => {
    const r = await call('GET', `/fakturakraj/${encodeURIComponent(externalId)}.json`)
    if (r.Kod === 404 || !r.PelnyNumer) return null
    return { externalId, number: r.PelnyNumer, url: null }
  }

  return {
    provider: 'ifirma',

    async create(content) {
      const r = await call('POST', '/fakturakraj.json', {}, JSON.stringify(ifirmaInvoiceBody(content)))
      if (r.Identyfikator === undefined) throw new InvoicingError('unavailable', `${SYSTEM}: the answer has no Identyfikator`)
      const invoice = await get(String(r.Identyfikator))
      if (!invoice) throw new InvoicingError('unavailable', `${SYSTEM}: invoice ${r.Identyfikator} not found after issuing it`)
      return invoice
    },

    async findByReference(reference, content) {
      const r = await call('GET', '/fakturakraj/list.json', { dataOd: content.date, dataDo: content.date, limit: '100' })
      const list = Array.isArray(r.Wynik) ? (r.Wynik as Array<{ FakturaId?: number | string; PelnyNumer?: string; Uwagi?: string }>) : []
      const found = list.find((inv) => inv.Uwagi === noteFor(reference) && inv.FakturaId !== undefined && inv.PelnyNumer)
      return found ? { externalId: String(found.FakturaId), number: found.PelnyNumer!, url: null } : null
    },

    get,

    async pdf(externalId) {
      const url = `${base}/fakturakraj/${encodeURIComponent(externalId)}.pdf`
      const hash = await ifirmaHash(config.invoiceKey, url, config.login, KEY_NAME, '')
      return readPdf(await callSystem(fetchImpl, SYSTEM, url, { headers: { Accept: 'application/pdf', Authentication: `IAPIS user=${config.login}, hmac-sha1=${hash}` } }), SYSTEM)
    },

    async testConnection() {
      await call('GET', '/fakturakraj/list.json', { limit: '1' })
    },
  }
}
