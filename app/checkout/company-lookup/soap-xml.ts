// The little XML the two SOAP registers need (no XML parser in workerd): escaping what we send,
// reading an element's text by its local name whatever prefix the answer uses, and taking the
// SOAP envelope out of an MTOM (multipart/related, XOP) answer as GUS BIR sends it.

export function escapeXml(value: string) {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')
}

export function unescapeXml(value: string) {
  return value.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|quot|apos|amp);/gi, (_, entity: string) => {
    const e = entity.toLowerCase()
    if (e === 'lt') return '<'
    if (e === 'gt') return '>'
    if (e === 'quot') return '"'
    if (e === 'apos') return "'"
    if (e === 'amp') return '&'
    const code = e.startsWith('#x') ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)
    return Number.isFinite(code) ? String.fromCodePoint(code) : ''
  })
}

const ESC = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * The text of the first element with this local name (`<a:Name>`, `<Name>`, `<Name/>`), entities
 * decoded (CDATA kept as is); undefined when there is none. Not for elements that nest themselves.
 */
export function elementText(xml: string, localName: string): string | undefined {
  const name = ESC(localName)
  const re = new RegExp(`<(?:[\\w.-]+:)?${name}(?:\\s[^>]*)?(?:/>|>([\\s\\S]*?)</(?:[\\w.-]+:)?${name}\\s*>)`)
  const m = re.exec(xml)
  if (!m) return undefined
  const inner = m[1] ?? ''
  const cdata = /^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/.exec(inner)
  return cdata ? cdata[1]! : unescapeXml(inner)
}

/** Is there an element with this local name at all. */
export const hasElement = (xml: string, localName: string) => new RegExp(`<(?:[\\w.-]+:)?${ESC(localName)}[\\s/>]`).test(xml)

/**
 * The SOAP envelope of an answer: the body itself, or — for MTOM (`multipart/related;
 * type="application/xop+xml"`) — the root part the `start` parameter names (else the first part).
 */
export function soapEnvelopeOf(contentType: string | null, body: string): string {
  const type = contentType ?? ''
  if (!/^multipart\/related/i.test(type.trim())) return body
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1]
  if (!boundary) return body
  const start = /(?:^|;)\s*start="?([^";]+)"?/i.exec(type)?.[1]
  const parts = body
    .split(`--${boundary}`)
    .slice(1)
    .filter((p) => !p.startsWith('--'))
  const parsed = parts.map((part) => {
    const text = part.replace(/^\r?\n/, '')
    const split = text.search(/\r?\n\r?\n/)
    const head = split < 0 ? '' : text.slice(0, split)
    const content = split < 0 ? text : text.slice(split).replace(/^\r?\n\r?\n/, '')
    return { head, content: content.replace(/\r?\n$/, '') }
  })
  const root = (start && parsed.find((p) => new RegExp(`^content-id:\\s*${ESC(start)}\\s*$`, 'im').test(p.head))) || parsed[0]
  return root ? root.content : body
}
