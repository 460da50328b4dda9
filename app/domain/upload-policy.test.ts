import { describe, expect, it } from 'vitest'
import { translate } from '#app/i18n/i18n.ts'
import { messages } from '#app/i18n/messages/index.ts'
import {
  GENERIC_COMPRESSION,
  MEDIA_ERROR_KEYS,
  IMAGE_EXTENSIONS,
  UPLOAD_COMPRESSION,
  UPLOAD_CONTEXTS,
  UPLOAD_POLICY,
  contentDispositionFor,
  downloadFilename,
  extensionAllowed,
  extensionOf,
  isTenantObjectKey,
  kindForExtension,
  maxSizeError,
  maxSizeMegabytes,
  objectKey,
  parseObjectKey,
  sanitizeFilename,
} from './upload-policy.ts'

describe('seed rules', () => {
  it('takes exactly the seed image extensions in the generic image context', () => {
    expect([...IMAGE_EXTENSIONS].sort()).toEqual(['gif', 'jpeg', 'jpg', 'png', 'svg', 'webp'])
    for (const ext of IMAGE_EXTENSIONS) expect(extensionAllowed('image', ext), ext).toBe(true)
    for (const ext of ['bmp', 'tiff', 'heic', 'pdf', 'zip', 'exe', 'html', 'svgz', null]) expect(extensionAllowed('image', ext), String(ext)).toBe(false)
  })

  it('limits post images to png, gif, jpeg and 600 KB (seed 000 §5, §9)', () => {
    expect(UPLOAD_POLICY.post_image.maxBytes).toBe(600 * 1024)
    expect(UPLOAD_POLICY.post_image.kinds).toEqual(['jpeg', 'png', 'gif'])
    expect(UPLOAD_POLICY.reply_image.kinds).toEqual(['jpeg', 'png', 'gif'])
    expect(extensionAllowed('post_image', 'webp')).toBe(false)
    expect(extensionAllowed('post_image', 'svg')).toBe(false)
    expect(maxSizeError('post_image')).toEqual({ key: 'media.error.max_size', values: { size: 0.6 } })
  })

  it('has a positive limit and at least one kind for every context; only file products take ZIP', () => {
    for (const context of UPLOAD_CONTEXTS) {
      expect(UPLOAD_POLICY[context].maxBytes).toBeGreaterThan(0)
      expect(UPLOAD_POLICY[context].kinds.length).toBeGreaterThan(0)
      expect(UPLOAD_POLICY[context].kinds.includes('zip')).toBe(context === 'file_product')
    }
    expect(UPLOAD_POLICY.file_product.disposition).toBe('attachment')
    expect(UPLOAD_POLICY.lecture_pdf.kinds).toEqual(['pdf'])
  })

  it('carries the seed compression constants', () => {
    expect(UPLOAD_COMPRESSION).toMatchObject({ quality: 0.5, minQuality: 0.4, maxWidth: 3000, maxHeight: 2000 })
    expect(GENERIC_COMPRESSION).toEqual({ maxWidth: 1920, maxHeight: 1920, quality: 0.75, minQuality: 0.5, step: 0.1 })
    expect(UPLOAD_POLICY.image.compression).toBe(GENERIC_COMPRESSION)
    expect(UPLOAD_POLICY.post_image.compression).toBe(UPLOAD_COMPRESSION)
    expect(UPLOAD_POLICY.file_product.compression).toBeNull()
  })

  it('shows sizes in megabytes with at most one decimal', () => {
    expect(maxSizeMegabytes(600 * 1024)).toBe(0.6)
    expect(maxSizeMegabytes(5 * 1024 * 1024)).toBe(5)
    expect(maxSizeMegabytes(500 * 1024 * 1024)).toBe(500)
    expect(maxSizeMegabytes(10)).toBe(0.1)
  })
})

describe('extensions', () => {
  it('reads the last extension of the last path segment, lower-cased', () => {
    expect(extensionOf('photo.JPG')).toBe('jpg')
    expect(extensionOf('archive.tar.gz')).toBe('gz')
    expect(extensionOf('photo.jpg.exe')).toBe('exe')
    expect(extensionOf('C:\\Users\\me\\cat.PNG')).toBe('png')
    expect(extensionOf('../../etc/passwd.png')).toBe('png')
    expect(extensionOf('.png')).toBeNull()
    expect(extensionOf('noext')).toBeNull()
    expect(extensionOf('trailing.')).toBeNull()
    expect(extensionOf('weird.p ng')).toBeNull()
  })

  it('maps jpg and jpeg to one kind', () => {
    expect(kindForExtension('jpg')).toBe('jpeg')
    expect(kindForExtension('JPEG')).toBe('jpeg')
    expect(kindForExtension('svg')).toBe('svg')
    expect(kindForExtension('exe')).toBeNull()
  })
})

describe('object keys', () => {
  it('are server-generated, tenant-prefixed and random', () => {
    const key = objectKey('t1abc', 'cover', 'jpeg')
    expect(key).toMatch(/^tenants\/t1abc\/cover\/[a-z2-7]{26}\.jpg$/)
    expect(objectKey('t1abc', 'cover', 'jpeg')).not.toBe(key)
    expect(objectKey('t1abc', 'lecture_pdf', 'pdf')).toMatch(/\.pdf$/)
    expect(parseObjectKey(key)).toEqual({ tenantId: 't1abc', context: 'cover', kind: 'jpeg' })
  })

  it('refuse tenant ids that could escape the prefix', () => {
    for (const bad of ['', '../t2', 't1/x', 'T1', 'a b', '.', 'x'.repeat(65)]) expect(() => objectKey(bad, 'cover', 'png'), bad).toThrow()
    expect(() => objectKey('t1', 'nope' as never, 'png')).toThrow()
  })

  it('belong to one tenant and context (BOLA guard for the delete call)', () => {
    const key = objectKey('tenant-a', 'post_image', 'png')
    expect(isTenantObjectKey(key, 'tenant-a')).toBe(true)
    expect(isTenantObjectKey(key, 'tenant-a', 'post_image')).toBe(true)
    expect(isTenantObjectKey(key, 'tenant-a', 'cover')).toBe(false)
    expect(isTenantObjectKey(key, 'tenant-b')).toBe(false)
    const random = key.split('/')[3]
    for (const forged of [
      `tenants/tenant-a/../tenant-b/post_image/${random}`,
      `tenants/tenant-a/post_image/../../tenant-b/${random}`,
      `/tenants/tenant-a/post_image/${random}`,
      `tenants/tenant-a/post_image/${random}/x`,
      `tenants/tenant-a/post_image/${random.replace('.png', '.svg')}`, // svg is not a post image kind
      `tenants/tenant-a/post_image/short.png`,
      `other/tenant-a/post_image/${random}`,
    ]) {
      expect(parseObjectKey(forged), forged).toBeNull()
      expect(isTenantObjectKey(forged, 'tenant-a'), forged).toBe(false)
    }
  })
})

describe('filenames', () => {
  it('drops paths, controls, bidi overrides and characters that break headers or Windows', () => {
    expect(sanitizeFilename('../../etc/passwd')).toBe('passwd')
    expect(sanitizeFilename('C:\\temp\\report.pdf')).toBe('report.pdf')
    expect(sanitizeFilename('invoice\u202Egpj.exe')).toBe('invoicegpj.exe')
    expect(sanitizeFilename('a\r\nSet-Cookie: x=1.pdf')).toBe('aSet-Cookie_ x=1.pdf')
    expect(sanitizeFilename('my "best" <file>?.pdf')).toBe('my _best_ _file__.pdf')
    expect(sanitizeFilename('  spaced    out  .pdf ')).toBe('spaced out .pdf')
    expect(sanitizeFilename('...hidden.')).toBe('hidden')
    expect(sanitizeFilename('CON.txt')).toBe('_CON.txt')
    expect(sanitizeFilename('nul')).toBe('_nul')
    expect(sanitizeFilename('')).toBe('file')
    expect(sanitizeFilename('\u0000\u0001')).toBe('file')
    expect(sanitizeFilename('Zażółć gęślą jaźń.pdf')).toBe('Zażółć gęślą jaźń.pdf')
  })

  it('shortens long names and keeps the extension', () => {
    const long = `${'a'.repeat(300)}.pdf`
    const clean = sanitizeFilename(long)
    expect(clean.length).toBe(120)
    expect(clean.endsWith('.pdf')).toBe(true)
  })

  it('names downloads after the real type', () => {
    expect(downloadFilename('report.exe', 'pdf')).toBe('report.pdf')
    expect(downloadFilename('photo', 'jpeg')).toBe('photo.jpg')
    expect(downloadFilename('', 'png')).toBe('file.png')
  })
})

describe('contentDispositionFor', () => {
  it('gives an ASCII filename and an RFC 5987 filename*', () => {
    expect(contentDispositionFor('report.pdf', 'attachment')).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`)
    expect(contentDispositionFor('Zażółć gęślą jaźń.pdf', 'inline')).toBe(
      `inline; filename="Zazolc gesla jazn.pdf"; filename*=UTF-8''Za%C5%BC%C3%B3%C5%82%C4%87%20g%C4%99%C5%9Bl%C4%85%20ja%C5%BA%C5%84.pdf`,
    )
  })

  it('encodes characters outside attr-char, including those encodeURIComponent leaves', () => {
    expect(contentDispositionFor("it's (final)*.pdf", 'attachment')).toBe(`attachment; filename="it's (final)_.pdf"; filename*=UTF-8''it%27s%20%28final%29_.pdf`)
    expect(contentDispositionFor('日本語.pdf', 'attachment')).toBe(`attachment; filename="___.pdf"; filename*=UTF-8''%E6%97%A5%E6%9C%AC%E8%AA%9E.pdf`)
  })

  it('cannot inject headers or break the quoted string', () => {
    for (const name of ['a"; filename*=UTF-8\'\'evil.html', 'x\r\nSet-Cookie: s=1', 'back\\slash.pdf', '"\u0000"']) {
      const value = contentDispositionFor(name, 'attachment')
      expect(value).not.toMatch(/[\r\n\u0000]/)
      expect(value.match(/filename\*=/g)).toHaveLength(1)
      expect(/^attachment; filename="[^"\\]*"; filename\*=UTF-8''[A-Za-z0-9!#$&+\-.^_`|~%]+$/.test(value), value).toBe(true)
      expect(() => new Headers({ 'content-disposition': value })).not.toThrow()
    }
  })
})

describe('messages', () => {
  it('has every upload error in both languages, with the seed wording in English', () => {
    for (const key of MEDIA_ERROR_KEYS) {
      expect(messages.en, key).toHaveProperty([key])
      expect(messages.pl, key).toHaveProperty([key])
    }
    expect(translate('en', 'media.error.bad_extension')).toBe('Bad file extension')
    expect(translate('en', 'media.error.too_big')).toBe('File too big')
    expect(translate('en', 'media.error.upload_failed')).toBe('Upload failed')
    expect(translate('en', 'media.error.locked')).toBe('upload is currently locked; retry later')
    expect(translate('en', 'media.upload.ok')).toBe('OK')
    expect(translate('en', 'media.upload.saved')).toBe('Saved')
    expect(translate('en', 'media.video.transcoding')).toBe('This video is now transcoding. Please reload the page in few minutes to check if it has uploaded correctly.')
    expect(translate('en', 'error.generic.title')).toBe('Something went wrong')
    expect(translate('en', 'error.session_expired_reload')).toBe('Your session has expired - please reload')
  })

  it('renders the size error and Polish plurals', () => {
    const error = maxSizeError('post_image')
    expect(translate('en', error.key, error.values)).toBe('Max size: 0.6 MB')
    expect(translate('pl', error.key, error.values)).toBe('Maksymalny rozmiar: 0,6 MB')
    const retry = (count: number) => translate('pl', 'media.upload.retrying', { count })
    expect(retry(1)).toContain('1 sekundę')
    expect(retry(3)).toContain('3 sekundy')
    expect(retry(5)).toContain('5 sekund…')
    expect(retry(22)).toContain('22 sekundy')
    expect(translate('en', 'media.upload.retrying', { count: 1 })).toBe('Connection lost. Retrying in 1 second…')
  })
})
