import { describe, expect, it } from 'vitest'
import type { UploadContext } from '#app/domain/upload-policy.ts'
import { bytes } from '#tests/bytes.ts'
import { POLYGLOT_SCAN_BYTES, checkUpload, containsMarkup, sniff } from './sniff.ts'

const b64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0))
const text = (s: string) => new TextEncoder().encode(s)
const filler = (n: number, byte = 0x41) => new Uint8Array(n).fill(byte)

// Tiny real files (1×1 pixel).
const PNG = b64('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==')
const GIF = b64('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7')
const WEBP = b64('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==')
const JPEG = bytes([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10], 'JFIF', [0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00], filler(64, 0x10), [0xff, 0xd9])
const PDF = text('%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n')
const ZIP = bytes([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00], filler(40, 0))
const EXE = bytes('MZ', [0x90, 0x00, 0x03, 0x00], filler(120, 0), 'This program cannot be run in DOS mode.')
const ELF = bytes([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01], filler(60, 0))
const SVG = text('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#c00"/></svg>\n')

describe('sniff', () => {
  it('recognises image, document and archive signatures', () => {
    expect(sniff(PNG)).toBe('png')
    expect(sniff(GIF)).toBe('gif')
    expect(sniff(bytes('GIF87a', filler(10)))).toBe('gif')
    expect(sniff(WEBP)).toBe('webp')
    expect(sniff(JPEG)).toBe('jpeg')
    expect(sniff(PDF)).toBe('pdf')
    expect(sniff(ZIP)).toBe('zip')
    expect(sniff(bytes([0x50, 0x4b, 0x05, 0x06], filler(18, 0)))).toBe('zip')
  })

  it('recognises executables and scripts', () => {
    expect(sniff(EXE)).toBe('exe')
    expect(sniff(ELF)).toBe('elf')
    expect(sniff(bytes([0xcf, 0xfa, 0xed, 0xfe], filler(20, 0)))).toBe('macho')
    expect(sniff(text('#!/bin/sh\nrm -rf /\n'))).toBe('script')
  })

  it('finds SVG behind a BOM, XML declaration, comments and a DOCTYPE', () => {
    expect(sniff(SVG)).toBe('svg')
    expect(sniff(text('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe('svg')
    expect(sniff(bytes([0xef, 0xbb, 0xbf], '\n  <!-- Generator: Adobe Illustrator -->\n<SVG version="1.1">'))).toBe('svg')
    expect(
      sniff(text('<?xml version="1.0" standalone="no"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n<!-- x -->\n<svg>')),
    ).toBe('svg')
    expect(sniff(text('<!DOCTYPE svg [<!ENTITY a "b">]><svg>'))).toBe('svg') // svg-safety refuses it later
  })

  it('recognises HTML the way browsers sniff it', () => {
    for (const html of ['<!DOCTYPE html><title>x</title>', '  \n<html>', '<HTML lang="en">', '<script>alert(1)</script>', '\t<iframe src=x>', '<body onload=x>', '<!-- c --><p>hi']) {
      expect(sniff(text(html)), html).toBe('html')
    }
    expect(sniff(bytes([0xef, 0xbb, 0xbf], '<html>'))).toBe('html')
  })

  it('calls everything else unknown', () => {
    expect(sniff(new Uint8Array())).toBe('unknown')
    expect(sniff(text('hello world'))).toBe('unknown')
    expect(sniff(bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt '))).toBe('unknown')
    expect(sniff(bytes('GIF88a', filler(4)))).toBe('unknown')
    expect(sniff(bytes([0x89, 0x50, 0x4e, 0x47]))).toBe('unknown') // truncated PNG signature
    expect(sniff(text('<svgfoo>'))).toBe('unknown')
    expect(sniff(text('<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml">'))).toBe('unknown')
  })
})

describe('checkUpload', () => {
  it('accepts a file whose extension, contents and context agree, and normalises the type', () => {
    expect(checkUpload({ filename: 'cat.png', bytes: PNG, context: 'post_image' })).toEqual({ ok: true, kind: 'png', mime: 'image/png', extension: 'png' })
    expect(checkUpload({ filename: 'Photo.JPEG', bytes: JPEG, context: 'cover' })).toEqual({ ok: true, kind: 'jpeg', mime: 'image/jpeg', extension: 'jpg' })
    expect(checkUpload({ filename: 'a.webp', bytes: WEBP, context: 'image' })).toMatchObject({ ok: true, kind: 'webp', mime: 'image/webp' })
    expect(checkUpload({ filename: 'anim.gif', bytes: GIF, context: 'reply_image' })).toMatchObject({ ok: true, kind: 'gif' })
    expect(checkUpload({ filename: 'logo.svg', bytes: SVG, context: 'image' })).toEqual({ ok: true, kind: 'svg', mime: 'image/svg+xml', extension: 'svg' })
    expect(checkUpload({ filename: 'slides.pdf', bytes: PDF, context: 'lecture_pdf' })).toMatchObject({ ok: true, kind: 'pdf', mime: 'application/pdf' })
    expect(checkUpload({ filename: 'pack.zip', bytes: ZIP, context: 'file_product' })).toMatchObject({ ok: true, kind: 'zip' })
    // The client's name is irrelevant beyond its extension.
    expect(checkUpload({ filename: '../../etc/photo.exe.jpg', bytes: JPEG, context: 'avatar' })).toMatchObject({ ok: true, kind: 'jpeg' })
  })

  it('refuses an empty file', () => {
    expect(checkUpload({ filename: 'empty.png', bytes: new Uint8Array(), context: 'image' })).toEqual({ ok: false, error: { key: 'media.error.empty' }, sniffed: null })
    expect(checkUpload({ filename: 'empty.png', bytes: PNG, size: 0, context: 'image' })).toMatchObject({ ok: false, error: { key: 'media.error.empty' } })
  })

  it("answers 'Bad file extension' for extensions the context does not take", () => {
    const bad = (filename: string, context: UploadContext, data = PNG) => {
      const result = checkUpload({ filename, bytes: data, context })
      return result.ok ? null : result.error.key
    }
    expect(bad('cat.bmp', 'image')).toBe('media.error.bad_extension')
    expect(bad('cat', 'image')).toBe('media.error.bad_extension')
    expect(bad('photo.jpg.exe', 'image', EXE)).toBe('media.error.bad_extension')
    expect(bad('logo.svg', 'post_image', SVG)).toBe('media.error.bad_extension')
    expect(bad('a.webp', 'reply_image', WEBP)).toBe('media.error.bad_extension')
    expect(bad('pack.zip', 'image', ZIP)).toBe('media.error.bad_extension')
    expect(bad('slides.pdf', 'cover', PDF)).toBe('media.error.bad_extension')
    expect(bad('page.html', 'file_product', text('<html>'))).toBe('media.error.bad_extension')
  })

  it("answers 'Max size' with the context's limit", () => {
    const size = 600 * 1024
    expect(checkUpload({ filename: 'big.png', bytes: PNG, size, context: 'post_image' }).ok).toBe(true)
    expect(checkUpload({ filename: 'big.png', bytes: PNG, size: size + 1, context: 'post_image' })).toEqual({
      ok: false,
      error: { key: 'media.error.max_size', values: { size: 0.6 } },
      sniffed: null,
    })
    expect(checkUpload({ filename: 'big.pdf', bytes: PDF, size: 50 * 1024 * 1024 + 1, context: 'lecture_pdf' })).toMatchObject({ error: { values: { size: 50 } } })
  })

  it('refuses a real type that differs from the declared one', () => {
    expect(checkUpload({ filename: 'cat.gif', bytes: PNG, context: 'post_image' })).toEqual({ ok: false, error: { key: 'media.error.type_mismatch' }, sniffed: 'png' })
    expect(checkUpload({ filename: 'cat.jpg', bytes: WEBP, context: 'image' })).toMatchObject({ error: { key: 'media.error.type_mismatch' }, sniffed: 'webp' })
    expect(checkUpload({ filename: 'pack.pdf', bytes: ZIP, context: 'file_product' })).toMatchObject({ error: { key: 'media.error.type_mismatch' } })
    expect(checkUpload({ filename: 'slides.pdf', bytes: PNG, context: 'lecture_pdf' })).toMatchObject({ error: { key: 'media.error.type_mismatch' } })
  })

  it('refuses executables, scripts, HTML and unknown content under any name', () => {
    expect(checkUpload({ filename: 'holiday.jpg', bytes: EXE, context: 'image' })).toEqual({ ok: false, error: { key: 'media.error.unsupported' }, sniffed: 'exe' })
    expect(checkUpload({ filename: 'pack.zip', bytes: ELF, context: 'file_product' })).toMatchObject({ error: { key: 'media.error.unsupported' }, sniffed: 'elf' })
    expect(checkUpload({ filename: 'logo.svg', bytes: text('<html><script>alert(1)</script>'), context: 'image' })).toMatchObject({ error: { key: 'media.error.unsupported' }, sniffed: 'html' })
    expect(checkUpload({ filename: 'doc.pdf', bytes: text('<!doctype html><p>'), context: 'lecture_pdf' })).toMatchObject({ error: { key: 'media.error.unsupported' } })
    expect(checkUpload({ filename: 'x.png', bytes: text('#!/usr/bin/env node'), context: 'image' })).toMatchObject({ error: { key: 'media.error.unsupported' }, sniffed: 'script' })
    expect(checkUpload({ filename: 'x.png', bytes: text('just text'), context: 'image' })).toMatchObject({ error: { key: 'media.error.unsupported' }, sniffed: 'unknown' })
  })

  describe('polyglots (markup inside an image)', () => {
    // A PNG tEXt chunk carrying HTML right after the header: valid PNG, and HTML to a sniffer.
    const pngWithHtml = bytes(PNG.subarray(0, 33), [0, 0, 0, 40], 'tEXt', 'Comment\u0000<html><script>alert(1)</script>', [0, 0, 0, 0], PNG.subarray(33))

    it('refuses an image carrying <script>/<html> in its first 8 KB', () => {
      expect(sniff(pngWithHtml)).toBe('png')
      expect(checkUpload({ filename: 'cat.png', bytes: pngWithHtml, context: 'image' })).toEqual({ ok: false, error: { key: 'media.error.unsupported' }, sniffed: 'png' })
      expect(checkUpload({ filename: 'a.gif', bytes: bytes('GIF89a', filler(20, 0), '<SCRIPT src=//evil>'), context: 'image' })).toMatchObject({ ok: false, error: { key: 'media.error.unsupported' } })
      expect(checkUpload({ filename: 'a.jpg', bytes: bytes(JPEG.subarray(0, 20), [0xff, 0xfe, 0, 30], '<iframe src="javascript:x">', JPEG.subarray(20)), context: 'cover' })).toMatchObject({
        ok: false,
        error: { key: 'media.error.unsupported' },
      })
      expect(checkUpload({ filename: 'a.webp', bytes: bytes(WEBP, '<!DOCTYPE html>'), context: 'image' })).toMatchObject({ ok: false })
    })

    it('still refuses a PNG with HTML renamed to .html or .svg (the extension must match the real type)', () => {
      expect(checkUpload({ filename: 'cat.html', bytes: pngWithHtml, context: 'image' })).toMatchObject({ error: { key: 'media.error.bad_extension' } })
      expect(checkUpload({ filename: 'cat.svg', bytes: pngWithHtml, context: 'image' })).toMatchObject({ error: { key: 'media.error.type_mismatch' } })
    })

    it('leaves markup appended beyond the sniffing window alone (served as the image it starts as)', () => {
      const appended = bytes(PNG, filler(POLYGLOT_SCAN_BYTES, 0), '<html><script>alert(1)</script></html>')
      expect(checkUpload({ filename: 'cat.png', bytes: appended, context: 'image' })).toMatchObject({ ok: true, kind: 'png' })
    })

    it('does not trip on look-alikes or on PDFs', () => {
      expect(containsMarkup(text('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF/></x:xmpmeta>'))).toBe(false)
      expect(containsMarkup(text('<scripted>'))).toBe(false)
      expect(containsMarkup(text('<Script>'))).toBe(true)
      expect(checkUpload({ filename: 'guide.pdf', bytes: bytes(PDF, '/JS (<script>)'), context: 'lecture_pdf' }).ok).toBe(true)
    })
  })

  it('runs SVGs through svg-safety, whole', () => {
    const evil = text('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')
    expect(checkUpload({ filename: 'logo.svg', bytes: evil, context: 'image' })).toEqual({ ok: false, error: { key: 'media.error.unsafe_svg' }, sniffed: 'svg' })
    expect(checkUpload({ filename: 'logo.svg', bytes: SVG, size: SVG.length + 100, context: 'image' })).toMatchObject({ ok: false, error: { key: 'media.error.unsafe_svg' } })
    expect(checkUpload({ filename: 'logo.svg', bytes: bytes('<svg>', [0xc3, 0x28], '</svg>'), context: 'image' })).toMatchObject({ ok: false, error: { key: 'media.error.unsafe_svg' } })
  })
})
