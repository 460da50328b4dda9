// The certificate PDF (issue 24 item 2), drawn in the Worker with pdf-lib: A4 landscape, the
// school's name and logo, the title, the student, the course, the date, the signature (name and
// image), the certificate id and a QR code to the public verification page, drawn as rectangles.
// Text uses an embedded DejaVu Sans subset (Polish glyphs; pdf-lib writes its ToUnicode map, so
// the text can be copied and searched). Pure: bytes in, bytes out.
import fontkit from '@pdf-lib/fontkit/dist/fontkit.es.min.js'
import { PDFDocument, rgb, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib/dist/pdf-lib.esm.min.js'
import qrcode from 'qrcode-generator'
import { DEJAVU_SANS_BASE64, DEJAVU_SANS_BOLD_BASE64 } from './fonts/dejavu-sans.ts'

export type CertificateImage = { bytes: Uint8Array; kind: 'png' | 'jpeg' }

export type CertificatePdfInput = {
  schoolName: string
  logo: CertificateImage | null
  /** The wording, already in the certificate's language. */
  labels: { title: string; certifies: string; completed: string; date: string; signature: string; id: string; verify: string }
  studentName: string
  courseTitle: string
  dateText: string
  signatureName: string
  signatureImage: CertificateImage | null
  certificateId: string
  verifyUrl: string
  issuedAt: number
}

const WIDTH = 841.89
const HEIGHT = 595.28
const MARGIN = 48
const INK = rgb(0.1, 0.12, 0.18)
const MUTED = rgb(0.35, 0.38, 0.45)
const ACCENT = rgb(0.16, 0.32, 0.7)

function fromBase64(value: string) {
  const binary = atob(value)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

let fontBytes: { regular: Uint8Array; bold: Uint8Array } | null = null
/** Decoded once per isolate. */
function fonts() {
  fontBytes ??= { regular: fromBase64(DEJAVU_SANS_BASE64), bold: fromBase64(DEJAVU_SANS_BOLD_BASE64) }
  return fontBytes
}

/** Characters the subset has no glyph for would draw as nothing: swap them for '?'. */
function printable(text: string, font: PDFFont) {
  const supported = new Set(font.getCharacterSet())
  return Array.from(text.replace(/\s+/g, ' ').trim())
    .map((ch) => (supported.has(ch.codePointAt(0) ?? 0) ? ch : '?'))
    .join('')
}

/** Lines of `text` at the largest size from `size` down to `min` that fits `width`; wraps at `min`. */
function fit(text: string, font: PDFFont, size: number, min: number, width: number): { size: number; lines: string[] } {
  for (let s = size; s >= min; s -= 1) if (font.widthOfTextAtSize(text, s) <= width) return { size: s, lines: [text] }
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    const next = line ? `${line} ${word}` : word
    if (line && font.widthOfTextAtSize(next, min) > width) {
      lines.push(line)
      line = word
    } else line = next
  }
  if (line) lines.push(line)
  return { size: min, lines: lines.slice(0, 3) }
}

/** Centred text block; returns the y below it. */
function centred(page: PDFPage, text: string, font: PDFFont, y: number, opts: { size: number; min?: number; color?: ReturnType<typeof rgb>; width?: number }) {
  const { size, lines } = fit(printable(text, font), font, opts.size, opts.min ?? opts.size, opts.width ?? WIDTH - 2 * MARGIN - 40)
  let cursor = y
  for (const line of lines) {
    const w = font.widthOfTextAtSize(line, size)
    page.drawText(line, { x: (WIDTH - w) / 2, y: cursor, size, font, color: opts.color ?? INK })
    cursor -= size * 1.25
  }
  return cursor
}

async function embedImage(doc: PDFDocument, image: CertificateImage | null): Promise<PDFImage | null> {
  if (!image) return null
  try {
    return image.kind === 'png' ? await doc.embedPng(image.bytes) : await doc.embedJpg(image.bytes)
  } catch {
    // A damaged image leaves its place empty rather than failing the certificate.
    return null
  }
}

function drawQr(page: PDFPage, url: string, x: number, y: number, size: number) {
  const qr = qrcode(0, 'M')
  qr.addData(url, 'Byte')
  qr.make()
  const count = qr.getModuleCount()
  const cell = size / count
  page.drawRectangle({ x: x - 4, y: y - 4, width: size + 8, height: size + 8, color: rgb(1, 1, 1) })
  for (let row = 0; row < count; row++) {
    for (let col = 0; col < count; col++) {
      if (qr.isDark(row, col)) page.drawRectangle({ x: x + col * cell, y: y + size - (row + 1) * cell, width: cell, height: cell, color: rgb(0, 0, 0) })
    }
  }
}

export async function renderCertificatePdf(input: CertificatePdfInput): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  doc.registerFontkit(fontkit)
  const { regular: regularBytes, bold: boldBytes } = fonts()
  const regular = await doc.embedFont(regularBytes, { subset: true })
  const bold = await doc.embedFont(boldBytes, { subset: true })
  doc.setTitle(`${input.labels.title} — ${input.courseTitle}`, { showInWindowTitleBar: true })
  doc.setAuthor(input.schoolName)
  doc.setSubject(input.studentName)
  doc.setProducer('Coursefront')
  doc.setCreator('Coursefront')
  doc.setCreationDate(new Date(input.issuedAt))
  doc.setModificationDate(new Date(input.issuedAt))

  const page = doc.addPage([WIDTH, HEIGHT])
  // Frame.
  page.drawRectangle({ x: 20, y: 20, width: WIDTH - 40, height: HEIGHT - 40, borderColor: ACCENT, borderWidth: 3 })
  page.drawRectangle({ x: 28, y: 28, width: WIDTH - 56, height: HEIGHT - 56, borderColor: ACCENT, borderWidth: 0.75 })

  // School: logo (if any) above its name.
  let y = HEIGHT - MARGIN - 20
  const logo = await embedImage(doc, input.logo)
  if (logo) {
    const scale = Math.min(64 / logo.width, 64 / logo.height, 1)
    const w = logo.width * scale
    const h = logo.height * scale
    page.drawImage(logo, { x: (WIDTH - w) / 2, y: y - h + 10, width: w, height: h })
    y -= h + 8
  }
  y = centred(page, input.schoolName, bold, y - 8, { size: 16, min: 11, color: MUTED })

  y = centred(page, input.labels.title, bold, y - 22, { size: 34, min: 22, color: ACCENT })
  y = centred(page, input.labels.certifies, regular, y - 14, { size: 14 })
  y = centred(page, input.studentName, bold, y - 14, { size: 30, min: 18 })
  y = centred(page, input.labels.completed, regular, y - 8, { size: 14 })
  y = centred(page, input.courseTitle, bold, y - 12, { size: 22, min: 14 })
  centred(page, `${input.labels.date}: ${input.dateText}`, regular, y - 8, { size: 12, color: MUTED })

  // Signature, bottom right: image above the line, the name below it.
  const lineY = 118
  const sigX = WIDTH - MARGIN - 40 - 220
  const signature = await embedImage(doc, input.signatureImage)
  if (signature) {
    const scale = Math.min(200 / signature.width, 56 / signature.height, 1)
    page.drawImage(signature, { x: sigX + (220 - signature.width * scale) / 2, y: lineY + 4, width: signature.width * scale, height: signature.height * scale })
  }
  page.drawLine({ start: { x: sigX, y: lineY }, end: { x: sigX + 220, y: lineY }, thickness: 0.75, color: MUTED })
  const sigName = printable(input.signatureName, regular)
  if (sigName) {
    const { size, lines } = fit(sigName, regular, 12, 8, 220)
    page.drawText(lines[0] ?? '', { x: sigX + (220 - regular.widthOfTextAtSize(lines[0] ?? '', size)) / 2, y: lineY - 16, size, font: regular, color: INK })
  }
  const sigLabel = printable(input.labels.signature, regular)
  page.drawText(sigLabel, { x: sigX + (220 - regular.widthOfTextAtSize(sigLabel, 9)) / 2, y: lineY - 30, size: 9, font: regular, color: MUTED })

  // Verification, bottom left: the QR code, the id and the address.
  const qrSize = 84
  const qrX = MARGIN + 12
  const qrY = 56
  drawQr(page, input.verifyUrl, qrX, qrY, qrSize)
  const textX = qrX + qrSize + 14
  page.drawText(printable(`${input.labels.id}: ${input.certificateId}`, regular), { x: textX, y: qrY + 54, size: 9, font: regular, color: INK })
  page.drawText(printable(input.labels.verify, regular), { x: textX, y: qrY + 38, size: 9, font: regular, color: MUTED })
  const url = fit(printable(input.verifyUrl, regular), regular, 9, 6, sigX - textX - 16)
  page.drawText(url.lines[0] ?? '', { x: textX, y: qrY + 24, size: url.size, font: regular, color: ACCENT })

  return doc.save()
}
