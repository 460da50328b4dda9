// Markdown for creators' text (lectures, articles, descriptions): marked renders, js-xss
// sanitizes the *output* (marked itself never sanitizes; reference §4). js-xss needs no DOM, so
// the same function runs in workerd (SSR) and in the browser (previews).
//
// Allowed: the usual prose elements, links (http, https, mailto, relative) opened safely, images
// (https/http/relative only), code, tables. Everything else — script, style, iframe, forms, event
// handlers, `javascript:`/`data:`/`vbscript:` URLs, inline styles — is removed.
import { Marked } from 'marked'
import xss from 'xss'

// js-xss is CommonJS: take its parts from the default export (named imports fail in the bundles).
const { FilterXSS, escapeAttrValue } = xss as unknown as typeof import('xss')

const marked = new Marked({ gfm: true, breaks: true, async: false })

const ALLOWED: Record<string, string[]> = {
  a: ['href', 'title'],
  abbr: ['title'],
  b: [],
  blockquote: [],
  br: [],
  code: ['class'],
  del: [],
  em: [],
  h1: [],
  h2: [],
  h3: [],
  h4: [],
  h5: [],
  h6: [],
  hr: [],
  i: [],
  img: ['src', 'alt', 'title', 'width', 'height'],
  li: [],
  ol: ['start'],
  p: [],
  pre: [],
  s: [],
  strong: [],
  sub: [],
  sup: [],
  table: [],
  tbody: [],
  td: ['align'],
  th: ['align'],
  thead: [],
  tr: [],
  u: [],
  ul: [],
  input: ['type', 'checked', 'disabled'],
}

/** Character references as a browser decodes them in an attribute (enough to see a scheme). */
function decodeEntities(value: string) {
  return value
    .replace(/&#x([0-9a-f]{1,6});?/gi, (_, hex: string) => safeCodePoint(parseInt(hex, 16)))
    .replace(/&#([0-9]{1,7});?/g, (_, dec: string) => safeCodePoint(Number(dec)))
    .replace(/&(colon|tab|newline|nbsp);?/gi, (_, name: string) => ({ colon: ':', tab: '\t', newline: '\n', nbsp: ' ' })[name.toLowerCase()] ?? '')
}
const safeCodePoint = (n: number) => (n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : '')

/** http(s), mailto and relative URLs only (ASVS 1.2.2: no javascript:, data:, vbscript:). */
export function isSafeUrl(value: string, { allowMailto = true } = {}) {
  // Browsers decode references and ignore control characters and whitespace inside a scheme:
  // judge what they would see.
  const url = decodeEntities(value).replace(/[\u0000-\u0020\u007f-\u009f]/g, '').toLowerCase()
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(url)?.[1]
  if (!scheme) return true // relative, or protocol-relative (http/https)
  return scheme === 'http' || scheme === 'https' || (allowMailto && scheme === 'mailto')
}

const filter = new FilterXSS({
  whiteList: ALLOWED,
  stripIgnoreTag: true,
  stripIgnoreTagBody: ['script', 'style', 'iframe', 'object', 'embed', 'template', 'noscript', 'xmp', 'math', 'svg'],
  allowCommentTag: false,
  safeAttrValue(tag, name, value) {
    if (name === 'href' || name === 'src') {
      if (!isSafeUrl(value, { allowMailto: name === 'href' })) return ''
      return escapeAttrValue(value)
    }
    if (tag === 'input' && name === 'type') return value === 'checkbox' ? 'checkbox' : ''
    if (tag === 'code' && name === 'class') return /^language-[a-z0-9_+-]{1,30}$/i.test(value) ? value : ''
    if ((name === 'width' || name === 'height' || name === 'start') && !/^\d{1,5}$/.test(value)) return ''
    return escapeAttrValue(value)
  },
})

/** Markdown → sanitized HTML, safe to put in `dangerouslySetInnerHTML`. */
export function renderMarkdown(markdown: string): string {
  const html = marked.parse(markdown ?? '') as string
  // Links leave the school's page without handing it the opener or the referrer. After
  // sanitizing, `<a ` only starts a real tag (text is escaped to &lt;a).
  return filter.process(html).replace(/<a /g, '<a rel="noopener noreferrer nofollow" target="_blank" ')
}
