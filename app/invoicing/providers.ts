// The invoicing systems a school can connect and the credential fields each one needs (seed 001 §3
// "Integration: kind, api key, user name"). Shared by the server and the integrations page.
export const INVOICE_PROVIDERS = ['fakturownia', 'infakt', 'ifirma'] as const
export type InvoiceProvider = (typeof INVOICE_PROVIDERS)[number]

export const isInvoiceProvider = (p: string): p is InvoiceProvider => (INVOICE_PROVIDERS as readonly string[]).includes(p)

export const CREDENTIAL_FIELDS = {
  fakturownia: ['account', 'apiToken'],
  infakt: ['apiKey'],
  ifirma: ['login', 'invoiceKey'],
} as const satisfies Record<InvoiceProvider, readonly string[]>

/** Which of them are secrets (sealed, never shown again in full). */
export const SECRET_FIELDS: ReadonlySet<string> = new Set(['apiToken', 'apiKey', 'invoiceKey'])
