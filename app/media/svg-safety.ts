// Is an uploaded SVG safe to serve as an image (ASVS 1.3.4, 12.5.2)? We do not sanitise (rewrite)
// SVGs: we refuse the ones that could run script, load anything from elsewhere or blow up an XML
// parser, and keep the bytes of the ones that cannot. This is one layer of two: the media
// response (issue 4) must also send `Content-Type: image/svg+xml`, `nosniff` and
// `Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'; sandbox`.
//
// Conservative on purpose: a text scan, not a parser, so every rule errs towards refusing.
// - Character references are decoded first (`&#x6a;`, `&#106`, leading zeros, no semicolon) and
//   repeatedly (`&amp;#x6a;`), so an obfuscated `javascript:` is still `javascript:`. Named
//   entities other than XML's five are refused outright: without a DTD they are errors in XML,
//   and in HTML (`&colon;`, `&Tab;`, `&NewLine;`) they are an obfuscation tool.
// - Case-insensitive everywhere (XML is case-sensitive, but an inlined SVG goes through the HTML
//   parser, which is not).
// - URL schemes are looked for with all whitespace and control characters removed, as browsers
//   strip tab and newline inside URLs (`java&#9;script:`).
// - No backslashes at all: CSS escapes rebuild any keyword (`u\rl(`, `@\69mport`), and SVG
//   never needs one. No `xml:base`, which would re-point even `#id` references.
// - Only fragment references (`#id`) and raster `data:image/(png|jpeg|gif|webp)` are allowed in
//   href/src/url(); anything else — http(s), protocol-relative, relative paths — is an external
//   reference (tracking, mixed content, or a path on our own media host).

export type SvgRisk =
  | 'not_svg'
  | 'malformed'
  | 'script'
  | 'event_handler'
  | 'javascript_url'
  | 'data_url'
  | 'foreign_object'
  | 'forbidden_element'
  | 'html_namespace'
  | 'external_reference'
  | 'entity'
  | 'doctype'
  | 'processing_instruction'
  | 'animation'
  | 'css'

export type SvgVerdict = { safe: true } | { safe: false; reason: SvgRisk; detail: string }

const refuse = (reason: SvgRisk, detail: string): SvgVerdict => ({ safe: false, reason, detail: detail.slice(0, 80) })

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

/** Decode character references; null if one is invalid or a named one is not XML's own. */
function decodeReferences(text: string): string | null {
  let invalid = false
  const out = text.replace(/&(#[xX][0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);?/g, (match, body: string) => {
    if (body.startsWith('#')) {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10)
      if (!Number.isFinite(code) || code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
        invalid = true
        return ''
      }
      return String.fromCodePoint(code)
    }
    const named = XML_ENTITIES[body]
    if (named === undefined || !match.endsWith(';')) {
      invalid = true
      return ''
    }
    return named
  })
  return invalid ? null : out
}

// Elements that run script, embed other documents, or belong to HTML forms/metadata.
const FORBIDDEN_ELEMENT =
  /<\s*\/?\s*(?:[a-z0-9_.-]+:)?(script|foreignobject|iframe|frame|frameset|embed|object|applet|handler|listener|meta|link|base|form|input|button|textarea|select|audio|video|canvas|portal|template|xsl)(?![a-z0-9_.-])/
const EVENT_HANDLER = /(?:^|[^a-z0-9_.-])(?:[a-z0-9_-]+:)?on[a-z]+\s*=/
const SCRIPT_SCHEME = /(?:java|vb|live|ecma|j|mocha)script:/
const DATA_URL = /(?:^|[^a-z0-9_.-])data:/g
const RASTER_DATA = /^data:image\/(?:png|jpe?g|gif|webp)[;,]/
const RASTER_BASE64 = /data:image\/(png|jpe?g|gif|webp);base64,[a-z0-9+\/=\s]+/g
const URL_ATTRIBUTE = /(?:^|[^a-z0-9_.-])(?:[a-z0-9_-]+:)?(href|src|action|formaction|poster|background)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]*))/g
const CSS_URL = /url\s*\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*))\)/g
const ANIMATED_ATTRIBUTE = /attributename\s*=\s*["']?\s*(?:[a-z0-9_-]+:)?(href|src|on[a-z]*|style)\b/
const DOCTYPE = /<!doctype[^>]*>/g
// `<!DOCTYPE svg>` or the W3C's public SVG DTDs (1.0, 1.1, Tiny, Basic); browsers never fetch them.
const ALLOWED_DOCTYPE = /^<!doctype svg(?: public "-\/\/w3c\/\/dtd svg [0-9.]+(?: tiny| basic)?\/\/en" "http:\/\/www\.w3\.org\/[a-z0-9\/._-]+\.dtd")?>$/
const NAMESPACE_BLOCKLIST: [string, SvgRisk][] = [
  ['http://www.w3.org/1999/xhtml', 'html_namespace'],
  ['http://www.w3.org/2001/xinclude', 'external_reference'],
  ['http://www.w3.org/1999/xsl/transform', 'processing_instruction'],
  ['http://www.w3.org/1998/math/mathml', 'forbidden_element'],
]

const stripSpace = (s: string) => s.replace(/[\u0000-\u0020\u007f-\u00a0\u1680\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff]/g, '')
const isAllowedReference = (value: string) => value === '' || value.startsWith('#') || RASTER_DATA.test(value)

/** Decide whether an SVG document (the whole text) may be served as an image. */
export function checkSvg(svg: string): SvgVerdict {
  // Control characters (other than tab, newline, CR) are not allowed in XML and split keywords.
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(svg)) return refuse('malformed', 'control character')

  let text = svg.replace(/^\ufeff/, '')
  // Decode until stable (at most 4 rounds: `&amp;amp;#x6a;` is already absurd).
  for (let round = 0; round < 4; round++) {
    const decoded = decodeReferences(text)
    if (decoded === null) return refuse('entity', 'named or invalid character reference')
    if (decoded === text) break
    text = decoded
    if (round === 3) return refuse('entity', 'nested character references')
  }
  // Raster data-URL payloads are opaque base64: drop them before scanning so that their letters
  // (`…/onAbc=`) cannot look like markup. What is left, `data:image/png;base64,`, is still checked.
  const norm = text.toLowerCase().replace(RASTER_BASE64, 'data:image/$1;base64,')
  const compact = stripSpace(norm)

  if (!/<svg[\s/>]/.test(norm)) return refuse('not_svg', 'no <svg> element')

  // Markup declarations and processing instructions.
  if (compact.includes('<!entity')) return refuse('entity', '<!ENTITY')
  for (const [doctype] of norm.matchAll(DOCTYPE)) {
    if (doctype.includes('[') || !ALLOWED_DOCTYPE.test(doctype.replace(/\s+/g, ' ').replace(/ ?>$/, '>'))) return refuse('doctype', doctype)
  }
  if (/<!doctype/.test(norm) && !norm.match(DOCTYPE)) return refuse('doctype', 'unterminated doctype')
  const pis = [...norm.matchAll(/<\?/g)]
  if (pis.length > 1 || (pis.length === 1 && !/^\s*<\?xml\s[^>]*\?>/.test(norm))) return refuse('processing_instruction', '<? … ?>')

  // Elements and namespaces.
  const element = FORBIDDEN_ELEMENT.exec(norm)
  if (element) {
    const name = element[1]
    return refuse(name === 'script' ? 'script' : name === 'foreignobject' ? 'foreign_object' : 'forbidden_element', element[0])
  }
  for (const [namespace, reason] of NAMESPACE_BLOCKLIST) {
    if (compact.includes(namespace)) return refuse(reason, namespace)
  }

  // Script in attributes and URLs.
  const handler = EVENT_HANDLER.exec(norm)
  if (handler) return refuse('event_handler', handler[0].trim())
  const scheme = SCRIPT_SCHEME.exec(compact)
  if (scheme) return refuse('javascript_url', scheme[0])
  for (const match of compact.matchAll(DATA_URL)) {
    const at = match.index + match[0].indexOf('data:')
    if (!RASTER_DATA.test(compact.slice(at, at + 24))) return refuse('data_url', compact.slice(at, at + 40))
  }
  const animated = ANIMATED_ATTRIBUTE.exec(norm)
  if (animated) return refuse('animation', animated[0])

  // References to anything but this document. xml:base would re-point even `#id` references.
  if (/(?:^|[^a-z0-9_.-])xml:base\s*=/.test(norm)) return refuse('external_reference', 'xml:base')
  for (const match of norm.matchAll(URL_ATTRIBUTE)) {
    const value = stripSpace(match[2] ?? match[3] ?? match[4] ?? '')
    if (!isAllowedReference(value)) return refuse('external_reference', `${match[1]}=${value}`)
  }

  // CSS (style elements and attributes): imports, legacy script hooks, escapes, external url().
  if (/@import|expression\s*\(|behavior\s*:|-moz-binding|image-set\s*\(|(?:^|[^a-z0-9_-])src\s*\(/.test(norm)) return refuse('css', 'css feature')
  // CSS escapes turn anything into anything (`u\rl(`, `@\69mport`); SVG itself never needs a backslash.
  if (norm.includes('\\')) return refuse('css', 'backslash escape')
  for (const match of norm.matchAll(CSS_URL)) {
    const value = stripSpace(match[1] ?? match[2] ?? match[3] ?? '').replace(/^["']|["']$/g, '')
    if (!isAllowedReference(value)) return refuse('external_reference', `url(${value})`)
  }

  return { safe: true }
}
