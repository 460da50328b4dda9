import { describe, expect, it } from 'vitest'
import { isSafeUrl, renderMarkdown } from './markdown.ts'

// Hostile inputs: HTML inside markdown, markdown links/images with dangerous schemes, entity and
// whitespace tricks, SVG/MathML, attribute breakouts. None may produce executable output.
const PAYLOADS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<img src="x" onerror="alert(1)">',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href="  javascript:alert(1)">x</a>',
  '<a href="java\tscript:alert(1)">x</a>',
  '<a href="java&#x09;script:alert(1)">x</a>',
  '<a href="&#106;avascript:alert(1)">x</a>',
  '<a href="data:text/html,<script>alert(1)</script>">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '[x](javascript:alert(1))',
  '[x](JAVASCRIPT:alert(1))',
  '[x](  javascript:alert(1))',
  '[x](javascript&#58;alert(1))',
  '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[x](vbscript:alert(1))',
  '![x](javascript:alert(1))',
  '![x](data:image/svg+xml,<svg onload=alert(1)>)',
  '![x" onerror="alert(1)](https://example.com/a.png)',
  '[x](https://example.com" onclick="alert(1))',
  '<p style="background:url(javascript:alert(1))">x</p>',
  '<div onclick="alert(1)">x</div>',
  '<form action="javascript:alert(1)"><button>x</button></form>',
  '<input onfocus=alert(1) autofocus>',
  '<details open ontoggle=alert(1)>',
  '<body onload=alert(1)>',
  '<style>*{background:url("javascript:alert(1)")}</style>',
  '<link rel=stylesheet href="javascript:alert(1)">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<template><script>alert(1)</script></template>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<xmp><img src=x onerror=alert(1)></xmp>',
  '<!--<img src=x onerror=alert(1)>-->',
  '<a href="https://ok.example" onmouseover="alert(1)">x</a>',
  '<img src="https://ok.example/a.png" onerror="alert(1)">',
  '`<script>alert(1)</script>`',
  '```\n<script>alert(1)</script>\n```',
  '<scr<script>ipt>alert(1)</script>',
  '<<script>script>alert(1)<</script>/script>',
  '<img src=`x`onerror=alert(1)>',
  '<img/src=x/onerror=alert(1)>',
  '<a/href="javascript:alert(1)">x</a>',
  '<video><source onerror=alert(1)></video>',
  '<audio src=x onerror=alert(1)>',
  '<marquee onstart=alert(1)>',
  '<isindex action=javascript:alert(1) type=image>',
  '<table background="javascript:alert(1)">',
  '<td background="javascript:alert(1)">',
  '<object type="text/x-scriptlet" data="https://evil.example">',
  '<a href="\\u006aavascript:alert(1)">x</a>',
  '<a href=" &#14;javascript:alert(1)">x</a>',
]

const DANGEROUS_TAGS = new Set(['script', 'iframe', 'object', 'embed', 'style', 'link', 'meta', 'base', 'form', 'svg', 'math', 'template', 'video', 'audio', 'source', 'body', 'marquee', 'isindex', 'details', 'button', 'textarea', 'select'])

function decode(value: string) {
  return value
    .replace(/&#x([0-9a-f]+);?/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);?/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(/&colon;/gi, ':')
    .replace(/&tab;/gi, '\t')
    .replace(/&newline;/gi, '\n')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
}

/** Would a browser run anything from this HTML? Looks at real tags and real attribute values only. */
function executable(html: string) {
  for (const tag of html.match(/<[a-z][^>]*>/gi) ?? []) {
    const name = /^<([a-z0-9]+)/i.exec(tag)![1].toLowerCase()
    if (DANGEROUS_TAGS.has(name)) return true
    const bare = tag.replace(/"[^"]*"|'[^']*'/g, '""')
    if (/\son[a-z]+\s*=/i.test(bare) || /\sstyle\s*=/i.test(bare)) return true
    for (const m of tag.matchAll(/\s(href|src|action|background|data|formaction|xlink:href)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)) {
      const value = decode(m[2] ?? m[3] ?? m[4] ?? '').replace(/[\u0000-\u0020\u007f-\u009f]/g, '').toLowerCase()
      if (/^(javascript|vbscript|data):/.test(value)) return true
    }
  }
  return false
}

describe('renderMarkdown', () => {
  it('renders the usual prose', () => {
    const html = renderMarkdown('# Title\n\nSome **bold** and _italic_ text with a [link](https://example.com) and `code`.\n\n- one\n- two')
    expect(html).toContain('<h1>Title</h1>')
    expect(html).toContain('<strong>bold</strong>')
    expect(html).toContain('<em>italic</em>')
    expect(html).toContain('<a rel="noopener noreferrer nofollow" target="_blank" href="https://example.com">link</a>')
    expect(html).toContain('<code>code</code>')
    expect(html).toContain('<li>one</li>')
  })

  it('keeps safe images and relative links', () => {
    expect(renderMarkdown('![cover](https://media.example.com/a.png)')).toContain('<img src="https://media.example.com/a.png" alt="cover">')
    expect(renderMarkdown('[next](/courses/intro)')).toContain('href="/courses/intro"')
    expect(renderMarkdown('[mail](mailto:kasia@example.com)')).toContain('href="mailto:kasia@example.com"')
  })

  it(`turns ${PAYLOADS.length} hostile inputs into nothing executable`, () => {
    const bad = PAYLOADS.map((p) => ({ p, html: renderMarkdown(p) })).filter(({ html }) => executable(html))
    expect(bad).toEqual([])
  })

  it('escapes text that looks like a tag instead of dropping the writing', () => {
    expect(renderMarkdown('1 < 2 and <b>bold</b>')).toContain('1 &lt; 2')
  })
})

describe('isSafeUrl', () => {
  it('takes http(s), mailto and relative; refuses script schemes however they are spelled', () => {
    for (const ok of ['https://a.b', 'http://a.b', '/x', 'x/y', '#top', '//cdn.example/a.png', 'mailto:a@b.c']) expect(isSafeUrl(ok), ok).toBe(true)
    for (const bad of ['javascript:alert(1)', ' JavaScript:x', 'java\tscript:x', 'data:text/html,x', 'vbscript:x', 'file:///etc/passwd']) expect(isSafeUrl(bad), bad).toBe(false)
    expect(isSafeUrl('mailto:a@b.c', { allowMailto: false })).toBe(false)
  })
})
