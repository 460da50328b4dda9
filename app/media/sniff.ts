// What a file really is, from its first bytes (ASVS 5.2.2: extension plus magic bytes), and the
// upload check that puts the declared extension, the real type and the context's rules together.
//
// Signatures (fixed facts of the formats):
//   JPEG FF D8 FF · PNG 89 50 4E 47 0D 0A 1A 0A · GIF "GIF87a"/"GIF89a" · WebP "RIFF" ???? "WEBP"
//   PDF "%PDF-" · ZIP "PK" 03 04 / 05 06 (empty) / 07 08 (spanned) · PE "MZ" · ELF 7F "ELF"
//   Mach-O FE ED FA CE/CF (and byte-swapped) · script "#!"
//   SVG: text, optional BOM, whitespace, XML declaration, comments, a DOCTYPE, then `<svg`.
//   HTML: text whose first tag is one browsers sniff as HTML (`<!doctype html`, `<html`, `<script`,
//   `<head`, `<body`, `<iframe`, …), as in the WHATWG MIME Sniffing "HTML" rule.
import { checkSvg } from './svg-safety.ts'
import { KIND_INFO, UPLOAD_POLICY, extensionAllowed, extensionOf, kindForExtension, maxSizeError, type FileKind, type MediaError, type UploadContext } from '#app/domain/upload-policy.ts'

/** ZIP is a FileKind (file products only, always served as an attachment); the rest are refused everywhere. */
export type SniffedType = FileKind | 'exe' | 'elf' | 'macho' | 'script' | 'html' | 'unknown'

/** Types that must never be stored where a browser might render or run them. */
export const DANGEROUS_TYPES: ReadonlySet<SniffedType> = new Set<SniffedType>(['exe', 'elf', 'macho', 'script', 'html'])

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0) {
  if (bytes.length < offset + signature.length) return false
  for (let i = 0; i < signature.length; i++) if (bytes[offset + i] !== signature[i]) return false
  return true
}
const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0))

/** How much of the head the text-based rules look at. */
const TEXT_HEAD_BYTES = 4096

/** The head as text (Latin-1 byte-for-char, so offsets stay bytes), lower-cased. */
function headText(bytes: Uint8Array, length = TEXT_HEAD_BYTES) {
  let out = ''
  const end = Math.min(bytes.length, length)
  for (let i = 0; i < end; i++) out += String.fromCharCode(bytes[i])
  return out.toLowerCase()
}

function stripBom(text: string) {
  // UTF-8 BOM read as Latin-1 is "ï»¿"; a UTF-16 BOM means a text format we do not take.
  return text.startsWith('\u00ef\u00bb\u00bf') ? text.slice(3) : text
}

const WS = /^[\t\n\f\r ]*/

/** Skip whitespace, an XML declaration, comments, processing instructions and one DOCTYPE. */
function skipXmlProlog(text: string): string | null {
  let rest = text.replace(WS, '')
  for (let guard = 0; guard < 64; guard++) {
    if (rest.startsWith('<?')) {
      const end = rest.indexOf('?>')
      if (end < 0) return null
      rest = rest.slice(end + 2)
    } else if (rest.startsWith('<!--')) {
      const end = rest.indexOf('-->', 4)
      if (end < 0) return null
      rest = rest.slice(end + 3)
    } else if (rest.startsWith('<!doctype')) {
      // A DOCTYPE may carry an internal subset in [ … ]; svg-safety refuses those later.
      const bracket = rest.indexOf('[')
      const close = rest.indexOf('>')
      if (close < 0) return null
      if (bracket >= 0 && bracket < close) {
        const end = rest.indexOf(']>', bracket)
        if (end < 0) return null
        rest = rest.slice(end + 2)
      } else {
        rest = rest.slice(close + 1)
      }
    } else {
      return rest
    }
    rest = rest.replace(WS, '')
  }
  return null
}

// WHATWG MIME Sniffing, "identifying a resource with an unknown MIME type": these tags (followed
// by a space or ">") make a browser treat bytes as HTML. `<svg` is not among them.
const HTML_START = /^<(?:!doctype html|html|head|script|iframe|h1|div|font|table|a|style|title|b|body|br|p|!--)[\t\n\f\r >]/

function isSvgText(text: string) {
  const rest = skipXmlProlog(text)
  return rest !== null && /^<svg[\t\n\f\r />]/.test(rest)
}

/** The real type of a file from its first bytes (give at least the first 4 KB when you have them). */
export function sniff(bytes: Uint8Array): SniffedType {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg'
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png'
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'gif'
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp'
  if (startsWith(bytes, ascii('%PDF-'))) return 'pdf'
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06]) || startsWith(bytes, [0x50, 0x4b, 0x07, 0x08])) return 'zip'
  if (startsWith(bytes, ascii('MZ'))) return 'exe'
  if (startsWith(bytes, [0x7f, 0x45, 0x4c, 0x46])) return 'elf'
  if ([[0xfe, 0xed, 0xfa, 0xce], [0xfe, 0xed, 0xfa, 0xcf], [0xce, 0xfa, 0xed, 0xfe], [0xcf, 0xfa, 0xed, 0xfe]].some((sig) => startsWith(bytes, sig))) return 'macho'
  if (startsWith(bytes, ascii('#!'))) return 'script'
  const text = stripBom(headText(bytes))
  if (isSvgText(text)) return 'svg'
  if (HTML_START.test(text.replace(WS, ''))) return 'html'
  return 'unknown'
}

/**
 * Polyglot rule (our decision; the seeds are silent).
 *
 * A raster image whose first 8 KB also contain HTML or script markup (a PNG tEXt chunk, a JPEG
 * comment or a GIF header carrying `<script>…`) is refused, even though its signature and
 * extension agree. Why: we serve uploads with their real Content-Type and `nosniff`, but a
 * mis-served copy (a CDN or proxy dropping headers, an old browser, a download opened from disk)
 * is sniffed from its first bytes — WHATWG MIME Sniffing reads a resource header of at most
 * 1445 bytes — and same-origin image/script polyglots are a known CSP bypass. 8 KB covers that
 * window with margin; markup appended at the end of a large file is beyond any sniffer's reach
 * and is left alone (the bytes are served as the image they start as). Real photos do not carry
 * these strings (XMP metadata uses `<x:xmpmeta>`/`<rdf:…>`), and the client-side compressor
 * re-encodes photos anyway, so the false-positive cost is a re-save. The chance of 7 random
 * compressed bytes spelling `<script` is about 8192 × 128⁻⁷ ≈ 10⁻¹¹.
 * PDFs and ZIPs are exempt: they are served as attachments (or in the PDF viewer), never sniffed as HTML.
 * Not caught here: an image whose header bytes are also valid JavaScript (`GIF89a=…`). That one is
 * stopped by serving it as image/* with `nosniff` (browsers refuse to run image types as script)
 * and by keeping uploads off the app's origin.
 */
export const POLYGLOT_SCAN_BYTES = 8 * 1024
const MARKUP_IN_IMAGE = /<(?:script|html|!doctype html|iframe|body|object|embed)[\t\n\f\r />]|javascript:/

export function containsMarkup(bytes: Uint8Array, length = POLYGLOT_SCAN_BYTES) {
  return MARKUP_IN_IMAGE.test(headText(bytes, length))
}

export type UploadCheckInput = {
  /** The name the client gave; only its extension is used. */
  filename: string
  /** The file, or at least its first POLYGLOT_SCAN_BYTES; SVGs must be complete. */
  bytes: Uint8Array
  context: UploadContext
  /** Total size when `bytes` is only the head (defaults to bytes.length). */
  size?: number
}

export type UploadCheck =
  | { ok: true; kind: FileKind; mime: string; extension: string }
  | { ok: false; error: MediaError; sniffed: SniffedType | null }

/**
 * Order: empty → extension allowed in the context ('Bad file extension') → size → real type from
 * bytes → real type equals the declared one → image polyglot rule → SVG safety.
 */
export function checkUpload({ filename, bytes, context, size = bytes.length }: UploadCheckInput): UploadCheck {
  const policy = UPLOAD_POLICY[context]
  if (size <= 0 || bytes.length === 0) return { ok: false, error: { key: 'media.error.empty' }, sniffed: null }

  const extension = extensionOf(filename)
  if (!extensionAllowed(context, extension)) return { ok: false, error: { key: 'media.error.bad_extension' }, sniffed: null }
  const declared = kindForExtension(extension)!

  if (size > policy.maxBytes) return { ok: false, error: maxSizeError(context), sniffed: null }

  const sniffed = sniff(bytes)
  if (DANGEROUS_TYPES.has(sniffed) || sniffed === 'unknown') return { ok: false, error: { key: 'media.error.unsupported' }, sniffed }
  if (sniffed !== declared) return { ok: false, error: { key: 'media.error.type_mismatch' }, sniffed }
  // The declared kind is allowed and equals the real one, so the real one is allowed too.

  if ((sniffed === 'jpeg' || sniffed === 'png' || sniffed === 'gif' || sniffed === 'webp') && containsMarkup(bytes)) {
    return { ok: false, error: { key: 'media.error.unsupported' }, sniffed }
  }

  if (sniffed === 'svg') {
    // Conservative: an SVG is judged whole, never by its head.
    if (size > bytes.length) return { ok: false, error: { key: 'media.error.unsafe_svg' }, sniffed }
    let text: string
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    } catch {
      return { ok: false, error: { key: 'media.error.unsafe_svg' }, sniffed }
    }
    if (!checkSvg(text).safe) return { ok: false, error: { key: 'media.error.unsafe_svg' }, sniffed }
  }

  const info = KIND_INFO[sniffed]
  return { ok: true, kind: sniffed, mime: info.mime, extension: info.extension }
}
