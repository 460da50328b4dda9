// The one interface every invoicing system adapter implements (issue 9 item 2): issue an invoice
// for a sale, find one by our reference (so a retry never issues a second one), read one back, and
// check that the credentials work ("test connection"). The invoice content is built once
// (invoice-content.ts) and each adapter maps it onto its system's documented fields.
import type { InvoiceContent } from './invoice-content.ts'

export type IssuedInvoice = {
  /** The system's id of the invoice. */
  externalId: string
  /** The number the system gave it, e.g. "FV 12/11/2026". */
  number: string
  /** A link the buyer may open without logging in, when the system has one. */
  url: string | null
}

export interface InvoicingAdapter {
  readonly provider: 'fakturownia' | 'infakt' | 'ifirma'
  /** Issue the invoice. `content.reference` (the transaction hash) travels with it so findByReference can see it. */
  create(content: InvoiceContent): Promise<IssuedInvoice>
  /** The invoice issued earlier for this reference, if the system has one. */
  findByReference(reference: string, content: InvoiceContent): Promise<IssuedInvoice | null>
  /** One invoice by the system's id (null when it does not exist). */
  get(externalId: string): Promise<IssuedInvoice | null>
  /** The invoice as a PDF (bytes), null when it does not exist: the student's link when the system has no public one. */
  pdf(externalId: string): Promise<ArrayBuffer | null>
  /** Resolves when the credentials are accepted; throws InvoicingError otherwise. */
  testConnection(): Promise<void>
}

export type InvoicingErrorKind = 'auth' | 'invalid' | 'unavailable' | 'unsupported'

/**
 * What went wrong, for the invoice's `error` column and the retry decision: `auth` and `invalid`
 * never get better by retrying; `unavailable` (5xx, 429, network) does.
 */
export class InvoicingError extends Error {
  constructor(
    readonly kind: InvoicingErrorKind,
    message: string,
    readonly status: number | null = null,
  ) {
    super(message)
  }

  get retryable() {
    return this.kind === 'unavailable'
  }
}

export type FetchLike = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>

/** Calls with a deadline: a stalled system becomes a retryable error instead of a hung consumer. */
export async function callSystem(fetchImpl: FetchLike, system: string, url: string, init: RequestInit, timeoutMs = 15_000) {
  try {
    return await fetchImpl(url, { ...init, signal: AbortSignal.timeout(timeoutMs) })
  } catch (error) {
    throw new InvoicingError('unavailable', `${system}: network error (${error instanceof Error ? error.name : 'unknown'})`)
  }
}

/** Reads a JSON answer; a cut-off body is the system's fault (retryable). */
export async function readJson(response: Response, system: string): Promise<unknown> {
  const text = await response.text()
  if (!text) return null
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new InvoicingError('unavailable', `${system}: unreadable answer (HTTP ${response.status})`, response.status)
  }
}

/** The HTTP status classes every adapter shares. */
export function statusError(system: string, status: number, detail: string) {
  const text = `${system}: ${detail || 'error'} (HTTP ${status})`.slice(0, 500)
  if (status === 401 || status === 403) return new InvoicingError('auth', text, status)
  if (status === 429 || status >= 500) return new InvoicingError('unavailable', text, status)
  return new InvoicingError('invalid', text, status)
}

/** A PDF answer's bytes; anything else is the system's failure. */
export async function readPdf(response: Response, system: string) {
  if (response.status === 404) return null
  const type = response.headers.get('Content-Type') ?? ''
  if (!response.ok || !type.includes('application/pdf')) throw statusError(system, response.ok ? 502 : response.status, 'no PDF')
  return response.arrayBuffer()
}
