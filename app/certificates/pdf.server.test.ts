// The certificate PDF opened with a real PDF reader (pdfjs-dist): its text carries Polish
// diacritics through the embedded font's ToUnicode map, the course title and the id; the QR code
// is drawn; a long title still renders. Node tier (pdfjs-dist's legacy build runs in Node).
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'
import { describe, expect, it } from 'vitest'
import { renderCertificatePdf, type CertificatePdfInput } from './pdf.server.ts'

async function pdfText(bytes: Uint8Array) {
  const doc = await getDocument({ data: bytes.slice(), useSystemFonts: false, isEvalSupported: false }).promise
  const page = await doc.getPage(1)
  const content = await page.getTextContent()
  const ops = await page.getOperatorList()
  const text = content.items.map((item) => ('str' in item ? item.str : '')).join('\n')
  return { text, pages: doc.numPages, operators: ops.fnArray.length, info: (await doc.getMetadata()).info as Record<string, unknown> }
}

// A 1×1 PNG (red pixel).
const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0))

const base: CertificatePdfInput = {
  schoolName: 'Szkoła Źdźbła',
  logo: { bytes: PNG, kind: 'png' },
  labels: {
    title: 'Certyfikat ukończenia',
    certifies: 'Niniejszym zaświadcza się, że',
    completed: 'ukończył(a) kurs',
    date: 'Data',
    signature: 'Podpis',
    id: 'Identyfikator certyfikatu',
    verify: 'Sprawdź autentyczność:',
  },
  studentName: 'Łukasz Żółć',
  courseTitle: 'Zażółć gęślą jaźń — kurs',
  dateText: '27 listopada 2026',
  signatureName: 'Gęślą Jaźń',
  signatureImage: { bytes: PNG, kind: 'png' },
  certificateId: 'abcdefghijklmnopqrstuvwxyz234567',
  verifyUrl: 'http://szkola.localhost/certificates/abcdefghijklmnopqrstuvwxyz234567',
  issuedAt: Date.UTC(2026, 10, 27, 10),
}

describe('certificate PDF', () => {
  it('has the Polish names, the course, the date, the signature and the id as text', async () => {
    const bytes = await renderCertificatePdf(base)
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-')
    const { text, pages, info } = await pdfText(bytes)
    expect(pages).toBe(1)
    expect(text).toContain('Łukasz Żółć')
    expect(text).toContain('Zażółć gęślą jaźń — kurs')
    expect(text).toContain('Certyfikat ukończenia')
    expect(text).toContain('Szkoła Źdźbła')
    expect(text).toContain('Data: 27 listopada 2026')
    expect(text).toContain('Gęślą Jaźń')
    expect(text).toContain('Identyfikator certyfikatu: abcdefghijklmnopqrstuvwxyz234567')
    expect(text).toContain(base.verifyUrl)
    expect(info.Title).toBe('Certyfikat ukończenia — Zażółć gęślą jaźń — kurs')
  })

  it('draws the QR code as rectangles and embeds both images', async () => {
    const withImages = await pdfText(await renderCertificatePdf(base))
    const without = await pdfText(await renderCertificatePdf({ ...base, logo: null, signatureImage: null, verifyUrl: 'http://x.localhost/certificates/a' }))
    // Hundreds of QR modules are hundreds of drawing operations.
    expect(withImages.operators).toBeGreaterThan(300)
    expect(without.operators).toBeLessThan(withImages.operators)
  })

  it('fits a long title and replaces characters the font lacks', async () => {
    const long = 'Bardzo długi tytuł kursu o programowaniu, który nie mieści się w jednej linii na certyfikacie ukończenia'
    const { text } = await pdfText(
      await renderCertificatePdf({ ...base, courseTitle: long, studentName: 'Anna 漢字 Nowak', logo: null, signatureImage: { bytes: new Uint8Array([1, 2, 3]), kind: 'jpeg' } }),
    )
    expect(text.replace(/\n/g, ' ')).toContain('Bardzo długi tytuł kursu')
    expect(text).toContain('Anna ?? Nowak')
  })
})
