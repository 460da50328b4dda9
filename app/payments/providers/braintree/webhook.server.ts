// Braintree webhooks (developer.paypal.com/braintree/docs/guides/webhooks/parse): a form-encoded POST
// of `bt_signature` and `bt_payload`. The payload is base64 XML (`<notification><kind>…
// <subject>…`); the signature is one or more `publicKey|hex` pairs joined by `&`, each hex being
// HMAC-SHA1 of the payload keyed with SHA1(privateKey) (the server SDKs' WebhookNotification.parse
// does the same). Compared in constant time through crypto.subtle.verify.
import { z } from 'zod'

const PAYLOAD_CHARS = /^[A-Za-z0-9+/=\n]+$/

export type BraintreeWebhook = { kind: string; timestamp: string | null; transaction: { legacyId: string; status: string | null; orderId: string | null } | null }

const hexBytes = (hex: string) => {
  const out = new Uint8Array(hex.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return out
}

async function hmacKey(privateKey: string) {
  const keyBytes = await crypto.subtle.digest('SHA-1', new TextEncoder().encode(privateKey))
  return crypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-1' }, false, ['verify'])
}

/** The payload when one of the signature's pairs is ours and verifies; null otherwise. */
export async function verifyWebhook(form: { signature: string; payload: string }, keys: { publicKey: string; privateKey: string }) {
  if (!PAYLOAD_CHARS.test(form.payload)) return null
  const pairs = form.signature.split('&').map((pair) => pair.split('|'))
  const ours = pairs.find((p) => p.length === 2 && p[0] === keys.publicKey)
  const hex = ours?.[1] ?? ''
  if (!/^[0-9a-f]{40}$/i.test(hex)) return null
  const ok = await crypto.subtle.verify('HMAC', await hmacKey(keys.privateKey), hexBytes(hex), new TextEncoder().encode(form.payload))
  return ok ? form.payload : null
}

const tag = (xml: string, name: string) => {
  const m = new RegExp(`<${name}(?:\\s[^>]*)?>([^<]*)</${name}>`).exec(xml)
  return m
    ? m[1]!
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&apos;/g, "'")
        .replace(/&amp;/g, '&')
    : null
}

const webhookSchema = z.object({ kind: z.string().regex(/^[a-z_]+$/), timestamp: z.string().nullable() })

/** Read the verified payload: the kind and, for transaction notifications, the transaction's ids. */
export function parseWebhook(payload: string): BraintreeWebhook | null {
  let xml: string
  try {
    const bin = atob(payload.replace(/\n/g, ''))
    xml = new TextDecoder().decode(Uint8Array.from(bin, (ch) => ch.charCodeAt(0)))
  } catch {
    return null
  }
  if (!/<notification[\s>]/.test(xml)) return null
  const head = webhookSchema.safeParse({ kind: tag(xml, 'kind'), timestamp: tag(xml, 'timestamp') })
  if (!head.success) return null
  const subject = /<transaction(?:\s[^>]*)?>([\s\S]*?)<\/transaction>/.exec(xml)?.[1]
  // The transaction's own <id> is its first: nested objects (disbursement details, …) come after it.
  const legacyId = subject ? tag(subject, 'id') : null
  return {
    ...head.data,
    transaction: subject && legacyId ? { legacyId, status: tag(subject, 'status'), orderId: tag(subject, 'order-id') || null } : null,
  }
}
