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
  // Entity- and whitespace-obfuscated schemes
  '<a href="javascript&colon;alert(1)">x</a>',
  '<a href="javascript&#58;alert(1)">x</a>',
  '<a href="javascript&#x3A;alert(1)">x</a>',
  '<a href="&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;:alert(1)">x</a>',
  '<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)">x</a>',
  '<a href="jav&#x0A;ascript:alert(1)">x</a>',
  '<a href="jav&#x0D;ascript:alert(1)">x</a>',
  '<a href="java&Tab;script:alert(1)">x</a>',
  '<a href="java&NewLine;script:alert(1)">x</a>',
  '<a href="\x00javascript:alert(1)">x</a>',
  '<a href="\x01javascript:alert(1)">x</a>',
  '<a href="VBScript:msgbox(1)">x</a>',
  '<a href="DATA:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<a href=javascript:alert(1)>x</a>',
  "<a href='javascript:alert(1)'>x</a>",
  '<img src="javascript:alert(1)">',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<img src="vbscript:alert(1)">',
  // Markdown links, images, reference links and autolinks with bad schemes
  '[x](<javascript:alert(1)>)',
  '[x](javascript:alert(1) "title")',
  '[x](java%0ascript:alert(1))',
  '[x](&#x6A;avascript:alert(1))',
  '[x](data:text/html,<script>alert(1)</script>)',
  '[x](vbscript&colon;msgbox(1))',
  '[x][ref]\n\n[ref]: javascript:alert(1)',
  '[x][ref]\n\n[ref]: data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  '![x][img]\n\n[img]: javascript:alert(1)',
  '[ref]\n\n[ref]: <javascript:alert(1)>',
  '<javascript:alert(1)>',
  '<vbscript:msgbox(1)>',
  '<data:text/html,alert(1)>',
  '![x](vbscript:alert(1))',
  '![x](https://ok.example/a.png "t\\" onerror=\\"alert(1)")',
  '[![x](javascript:alert(1))](javascript:alert(1))',
  // Event handlers in many shapes
  '<img src=x onload=alert(1)>',
  '<img src=x ONERROR=alert(1)>',
  '<img src=x onerror\n=alert(1)>',
  '<img src=x onerror  =  "alert(1)">',
  '<p onmouseover="alert(1)">hover</p>',
  '<b onclick=alert(1)>x</b>',
  '<h1 onfocus=alert(1) tabindex=1>x</h1>',
  '<table onpointerenter=alert(1)><tr><td>x</td></tr></table>',
  '<a href="/ok" onfocus="alert(1)" autofocus>x</a>',
  '<img src=x:alert(alt) onerror=eval(src) alt=0>',
  '<code class="language-js" onclick="alert(1)">x</code>',
  '<input type="checkbox" onclick="alert(1)">',
  '<input type="image" src="javascript:alert(1)">',
  '<img src="https://ok.example/a.png" style="x:expression(alert(1))">',
  // SVG payloads
  '<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">x</text></a></svg>',
  '<svg><animate onbegin=alert(1) attributeName=x dur=1s>',
  '<svg><set attributeName="href" to="javascript:alert(1)" /></svg>',
  '<svg><use href="data:image/svg+xml,<svg id=x onload=alert(1)>#x"></use></svg>',
  '<svg><foreignObject><iframe srcdoc="<script>alert(1)</script>"></iframe></foreignObject></svg>',
  '<svg><style>@import "javascript:alert(1)"</style></svg>',
  '<svg/onload=alert(1)>',
  // MathML, iframes, styles, base, meta, forms
  '<math><maction actiontype="statusline" xlink:href="javascript:alert(1)">x</maction></math>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<iframe src="https://evil.example"></iframe>',
  '<iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>',
  '<style>@import url(https://evil.example/x.css);</style>',
  '<div style="behavior:url(x.htc)">x</div>',
  '<base target="_blank" href="https://evil.example/">',
  '<meta http-equiv="set-cookie" content="a=b">',
  '<meta charset="x-imap4-modified-utf7">',
  '<form><button formaction="javascript:alert(1)">x</button></form>',
  '<form id="f"></form><button form="f" formaction="javascript:alert(1)">x</button>',
  '<textarea autofocus onfocus=alert(1)>',
  '<select onfocus=alert(1) autofocus>',
  '<keygen autofocus onfocus=alert(1)>',
  // Comments, CDATA and mutation XSS
  '<!--><img src=x onerror=alert(1)>-->',
  '<!-- --!><img src=x onerror=alert(1)>-->',
  '<![CDATA[<img src=x onerror=alert(1)>]]>',
  '<noscript><img src=x onerror=alert(1)></noscript>',
  '<template><img src=x onerror=alert(1)></template>',
  '<xmp></xmp><img src=x onerror=alert(1)>',
  '<listing><img src=x onerror=alert(1)></listing>',
  '<noembed><img title="</noembed><img src=x onerror=alert(1)>"></noembed>',
  '<noframes><img title="</noframes><img src=x onerror=alert(1)>"></noframes>',
  '<textarea><img title="</textarea><img src=x onerror=alert(1)>"></textarea>',
  '<title><img title="</title><img src=x onerror=alert(1)>"></title>',
  '<table><caption><svg><style><img src=x onerror=alert(1)></style></svg></caption></table>',
  '<a href="x" title="&quot; onmouseover=&quot;alert(1)">x</a>',
  '<img src="x`" ``onerror=alert(1)>',
  '<object data="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="></object>',
  '<applet code="javascript:alert(1)"></applet>',
  '<frameset onload=alert(1)>',
  '<portal src="https://evil.example"></portal>',
]

const DANGEROUS_TAGS = new Set(['script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'portal', 'style', 'link', 'meta', 'base', 'form', 'svg', 'math', 'template', 'noscript', 'xmp', 'title', 'video', 'audio', 'source', 'body', 'marquee', 'isindex', 'keygen', 'details', 'button', 'textarea', 'select', 'animate', 'set', 'use', 'foreignobject'])

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

  it('has a corpus of at least 100 hostile inputs', () => {
    expect(new Set(PAYLOADS).size).toBe(PAYLOADS.length)
    expect(PAYLOADS.length).toBeGreaterThanOrEqual(100)
  })

  it(`turns ${PAYLOADS.length} hostile inputs into nothing executable`, () => {
    const bad = PAYLOADS.map((p) => ({ p, html: renderMarkdown(p) })).filter(({ html }) => executable(html))
    expect(bad).toEqual([])
  })

  it('escapes text that looks like a tag instead of dropping the writing', () => {
    expect(renderMarkdown('1 < 2 and <b>bold</b>')).toContain('1 &lt; 2')
  })
})

describe('the inertness check itself', () => {
  it('catches what it must catch (so a pass above means something)', () => {
    for (const html of ['<script>x</script>', '<img src=x onerror=alert(1)>', '<a href="jav&#x09;ascript:x">', '<a href="DATA:text/html,x">', '<svg>', '<math>', '<base href=/>', '<meta charset=x>', '<form>', '<p style="x">', "<a href='vbscript:x'>"]) expect(executable(html), html).toBe(true)
    for (const html of ['<p>ok</p>', '<a href="https://a.b" rel="noopener">x</a>', '<img src="/a.png" alt="onerror=x">', '&lt;script&gt;']) expect(executable(html), html).toBe(false)
  })
})

describe('isSafeUrl', () => {
  it('takes http(s), mailto and relative; refuses script schemes however they are spelled', () => {
    for (const ok of ['https://a.b', 'http://a.b', '/x', 'x/y', '#top', '//cdn.example/a.png', 'mailto:a@b.c']) expect(isSafeUrl(ok), ok).toBe(true)
    for (const bad of ['javascript:alert(1)', ' JavaScript:x', 'java\tscript:x', 'data:text/html,x', 'vbscript:x', 'file:///etc/passwd']) expect(isSafeUrl(bad), bad).toBe(false)
    expect(isSafeUrl('mailto:a@b.c', { allowMailto: false })).toBe(false)
  })
})
