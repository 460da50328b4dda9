import { describe, expect, it } from 'vitest'
import { checkSvg, type SvgRisk } from './svg-safety.ts'

const NS = 'xmlns="http://www.w3.org/2000/svg"'
const XLINK = 'xmlns:xlink="http://www.w3.org/1999/xlink"'
const PNG_DATA = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='

// Shapes of SVGs as common tools write them. All must pass.
const BENIGN: Record<string, string> = {
  'icon set style (stroke icon)': `<svg ${NS} width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" class="icon icon-online"><circle cx="12" cy="12" r="10"></circle><polyline points="12 6 12 12 16 14"></polyline></svg>`,
  'Figma export with clip path': `<svg width="32" height="32" viewBox="0 0 32 32" fill="none" ${NS}>
<g clip-path="url(#clip0_12_34)">
<path fill-rule="evenodd" clip-rule="evenodd" d="M16 0C7.163 0 0 7.163 0 16s7.163 16 16 16 16-7.163 16-16S24.837 0 16 0Zm0 29C8.82 29 3 23.18 3 16S8.82 3 16 3s13 5.82 13 13-5.82 13-13 13Z" fill="#0F172A"/>
</g>
<defs>
<clipPath id="clip0_12_34">
<rect width="32" height="32" fill="white"/>
</clipPath>
</defs>
</svg>
`,
  'Inkscape with metadata, gradients and xlink': `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!-- Created with Inkscape (http://www.inkscape.org/) -->

<svg
   width="210mm"
   height="297mm"
   viewBox="0 0 210 297"
   version="1.1"
   id="svg5"
   inkscape:version="1.2.2 (b0a8486541, 2022-12-01)"
   sodipodi:docname="logo.svg"
   xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"
   xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"
   ${XLINK}
   ${NS}
   xmlns:svg="http://www.w3.org/2000/svg"
   xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
   xmlns:cc="http://creativecommons.org/ns#"
   xmlns:dc="http://purl.org/dc/elements/1.1/">
  <sodipodi:namedview id="namedview7" pagecolor="#ffffff" bordercolor="#666666" borderopacity="1.0" inkscape:showpageshadow="2" inkscape:zoom="0.5" />
  <defs id="defs2">
    <linearGradient inkscape:collect="always" id="linearGradient1">
      <stop style="stop-color:#ff6600;stop-opacity:1;" offset="0" id="stop1" />
      <stop style="stop-color:#ff6600;stop-opacity:0;" offset="1" id="stop2" />
    </linearGradient>
    <linearGradient inkscape:collect="always" xlink:href="#linearGradient1" id="linearGradient2" x1="10" y1="10" x2="100" y2="100" gradientUnits="userSpaceOnUse" />
  </defs>
  <metadata id="metadata1">
    <rdf:RDF>
      <cc:Work rdf:about="">
        <dc:format>image/svg+xml</dc:format>
        <dc:title>Akademia Kasi – logo</dc:title>
      </cc:Work>
    </rdf:RDF>
  </metadata>
  <g inkscape:label="Layer 1" inkscape:groupmode="layer" id="layer1">
    <rect style="fill:url(#linearGradient2);fill-opacity:1;stroke:none" id="rect1" width="90" height="90" x="10" y="10" />
    <text xml:space="preserve" style="font-size:10.5833px;font-family:sans-serif" x="20" y="120" id="text1"><tspan id="tspan1" x="20" y="120">Kursy &amp; szkolenia online</tspan></text>
  </g>
</svg>
`,
  'Illustrator export (CDATA style, doctype-free)': `<?xml version="1.0" encoding="utf-8"?>
<!-- Generator: Adobe Illustrator 27.0.0, SVG Export Plug-In . SVG Version: 6.00 Build 0)  -->
<svg version="1.1" id="Layer_1" ${NS} ${XLINK} x="0px" y="0px"
\t viewBox="0 0 100 100" style="enable-background:new 0 0 100 100;" xml:space="preserve">
<style type="text/css">
<![CDATA[
\t.st0{fill:#E30613;}
\t.st1{fill:none;stroke:#1D1D1B;stroke-width:2;stroke-miterlimit:10;}
]]>
</style>
<rect x="10" y="10" class="st0" width="80" height="80"/>
<line class="st1" x1="10" y1="50" x2="90" y2="50"/>
</svg>
`,
  'SVG 1.1 doctype, <use> sprite and character references': `<?xml version="1.0" standalone="no"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg ${NS} ${XLINK} version="1.1" width="120" height="40">
  <title>Badge &#169; 2024 &#x2014; button</title>
  <defs><symbol id="star" viewBox="0 0 10 10"><path d="M5 0l1.5 3.5L10 4 7.5 6.5 8 10 5 8 2 10l.5-3.5L0 4l3.5-.5z"/></symbol></defs>
  <use xlink:href="#star" x="0" y="0" width="40" height="40"/>
  <use href="#star" x="40" y="0" width="40" height="40"/>
  <text x="80" y="25">A &lt; B &amp;&amp; C</text>
</svg>`,
  'SVG 1.0 doctype': `<?xml version="1.0"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.0//EN" "http://www.w3.org/TR/2001/REC-SVG-20010904/DTD/svg10.dtd">
<svg ${NS} width="10" height="10"><rect width="10" height="10"/></svg>`,
  'embedded raster image as a data URL': `<svg ${NS} ${XLINK} width="100" height="100"><image width="100" height="100" xlink:href="${PNG_DATA}"/><image width="50" height="50" href="data:image/jpeg;base64,/9j/4AAQSkZJRgABAQAAAQABAAD/onAbc=="/></svg>`,
  'loading spinner with SMIL animation': `<svg ${NS} viewBox="0 0 50 50"><circle cx="25" cy="25" r="20" fill="none" stroke="#333" stroke-width="5" stroke-dasharray="31.4 31.4"><animateTransform attributeName="transform" type="rotate" from="0 25 25" to="360 25 25" dur="1s" repeatCount="indefinite"/><animate attributeName="opacity" values="1;0.5;1" dur="2s" repeatCount="indefinite"/></circle></svg>`,
  'BOM, filters and masks': `\ufeff<svg ${NS} viewBox="0 0 10 10"><defs><filter id="f"><feGaussianBlur stdDeviation="1"/></filter><mask id="m"><rect width="10" height="10" fill="#fff"/></mask></defs><rect width="10" height="10" filter="url('#f')" mask="url( #m )"/></svg>`,
}

type Payload = { svg: string; reason: SvgRisk }
// Hostile payloads; each must be refused for the stated reason.
const HOSTILE: Record<string, Payload> = {
  'onload attribute': { svg: `<svg ${NS} onload="alert(1)"/>`, reason: 'event_handler' },
  'ONLOAD upper case': { svg: `<svg ${NS} ONLOAD="alert(1)"/>`, reason: 'event_handler' },
  'slash-separated handler': { svg: `<svg/onload=alert(1)>`, reason: 'event_handler' },
  'handler glued after a quote': { svg: `<svg ${NS} x="1"onload="alert(1)"/>`, reason: 'event_handler' },
  'handler on an animation element': { svg: `<svg ${NS}><animate onbegin=alert(1) attributeName=x dur=1s/></svg>`, reason: 'event_handler' },
  'handler with encoded name': { svg: `<svg ${NS}><rect on&#x6c;oad="alert(1)"/></svg>`, reason: 'event_handler' },
  'script element': { svg: `<svg ${NS}><script>alert(document.domain)</script></svg>`, reason: 'script' },
  'SCRIPT element upper case': { svg: `<svg ${NS}><SCRIPT>alert(1)</SCRIPT></svg>`, reason: 'script' },
  'prefixed script element': { svg: `<svg ${NS} xmlns:svg="http://www.w3.org/2000/svg"><svg:script>alert(1)</svg:script></svg>`, reason: 'script' },
  'external script': { svg: `<svg ${NS} ${XLINK}><script xlink:href="https://evil.example/x.js"/></svg>`, reason: 'script' },
  'script hidden in CDATA-free entity text': { svg: `<svg ${NS}><text>&lt;script&gt;alert(1)&lt;/script&gt;</text></svg>`, reason: 'script' },
  'SVG Tiny handler element': { svg: `<svg ${NS}><handler type="application/ecmascript">alert(1)</handler></svg>`, reason: 'forbidden_element' },
  'javascript: link': { svg: `<svg ${NS}><a href="javascript:alert(1)"><text>x</text></a></svg>`, reason: 'javascript_url' },
  'hex-entity javascript:': { svg: `<svg ${NS} ${XLINK}><a xlink:href="&#x6a;avascript:alert(1)"><text>x</text></a></svg>`, reason: 'javascript_url' },
  'decimal-entity javascript:': {
    svg: `<svg ${NS}><a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)"><text>x</text></a></svg>`,
    reason: 'javascript_url',
  },
  'leading zeros, no semicolon': { svg: `<svg ${NS}><a href="&#0000106avascript:alert(1)">x</a></svg>`, reason: 'javascript_url' },
  'tab entity inside the scheme': { svg: `<svg ${NS}><a href="java&#x09;script:alert(1)">x</a></svg>`, reason: 'javascript_url' },
  'raw newline inside the scheme': { svg: `<svg ${NS}><a href="java\nscript:alert(1)">x</a></svg>`, reason: 'javascript_url' },
  'mixed case with leading space': { svg: `<svg ${NS}><a href="  JaVaScRiPt:alert(1)">x</a></svg>`, reason: 'javascript_url' },
  'double-encoded reference': { svg: `<svg ${NS}><a href="&amp;#x6a;avascript:alert(1)">x</a></svg>`, reason: 'javascript_url' },
  'HTML named entity &colon;': { svg: `<svg ${NS}><a href="javascript&colon;alert(1)">x</a></svg>`, reason: 'entity' },
  'vbscript: link': { svg: `<svg ${NS}><a href="vbscript:msgbox(1)">x</a></svg>`, reason: 'javascript_url' },
  'javascript: through SMIL': { svg: `<svg ${NS}><a><set attributeName="href" to="javascript:alert(1)"/><text>x</text></a></svg>`, reason: 'javascript_url' },
  'SMIL rewriting href to a remote URL': { svg: `<svg ${NS}><a><animate attributeName="xlink:href" values="https://evil.example/"/></a></svg>`, reason: 'animation' },
  'SMIL setting an event attribute': { svg: `<svg ${NS}><set attributeName="onmouseover" to="alert(1)"/></svg>`, reason: 'animation' },
  'data:text/html link': { svg: `<svg ${NS}><a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a></svg>`, reason: 'data_url' },
  'data:text/html with inline markup': { svg: `<svg ${NS}><a href="data:text/html,&lt;b&gt;hi">x</a></svg>`, reason: 'data_url' },
  'nested SVG as data URL': { svg: `<svg ${NS}><image href="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+"/></svg>`, reason: 'data_url' },
  'foreignObject with HTML': {
    svg: `<svg ${NS}><foreignObject width="100" height="100"><body xmlns="http://www.w3.org/1999/xhtml"><iframe src="https://evil.example"/></body></foreignObject></svg>`,
    reason: 'foreign_object',
  },
  'iframe element': { svg: `<svg ${NS}><iframe src="https://evil.example"/></svg>`, reason: 'forbidden_element' },
  'embed / object elements': { svg: `<svg ${NS}><embed src="x.swf"/><object data="x.pdf"/></svg>`, reason: 'forbidden_element' },
  'meta refresh': { svg: `<svg ${NS}><meta http-equiv="refresh" content="0;url=https://evil.example"/></svg>`, reason: 'forbidden_element' },
  'XHTML namespace': { svg: `<svg ${NS} xmlns:h="http://www.w3.org/1999/xhtml"><h:img src="x"/></svg>`, reason: 'html_namespace' },
  'external image (tracking pixel)': { svg: `<svg ${NS}><image href="https://evil.example/pixel.png" width="1" height="1"/></svg>`, reason: 'external_reference' },
  'external sprite via xlink:href': { svg: `<svg ${NS} ${XLINK}><use xlink:href="http://evil.example/sprite.svg#icon"/></svg>`, reason: 'external_reference' },
  'protocol-relative use': { svg: `<svg ${NS}><use href="//evil.example/x.svg#a"/></svg>`, reason: 'external_reference' },
  'relative path to another object': { svg: `<svg ${NS}><image href="../tenant-b/cover/secret.png"/></svg>`, reason: 'external_reference' },
  'feImage from the network': { svg: `<svg ${NS}><filter id="f"><feImage href="https://evil.example/x.png"/></filter></svg>`, reason: 'external_reference' },
  'XInclude': { svg: `<svg ${NS} xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="file:///etc/passwd" parse="text"/></svg>`, reason: 'external_reference' },
  'XXE entity': { svg: `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><svg ${NS}><text>&xxe;</text></svg>`, reason: 'entity' },
  'billion laughs': {
    svg: `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;">]><svg ${NS}><text>&lol2;</text></svg>`,
    reason: 'entity',
  },
  'external DTD': { svg: `<!DOCTYPE svg SYSTEM "http://evil.example/x.dtd"><svg ${NS}/>`, reason: 'doctype' },
  'xml-stylesheet processing instruction': { svg: `<?xml version="1.0"?><?xml-stylesheet type="text/xsl" href="https://evil.example/x.xsl"?><svg ${NS}/>`, reason: 'processing_instruction' },
  'CSS @import': { svg: `<svg ${NS}><style>@import url(https://evil.example/x.css);</style></svg>`, reason: 'css' },
  'CSS escape hiding @import': { svg: `<svg ${NS}><style>@\\69mport url(x.css);</style></svg>`, reason: 'css' },
  'CSS remote url()': { svg: `<svg ${NS}><style>rect { fill: url("https://evil.example/p.svg#p") }</style><rect width="1" height="1"/></svg>`, reason: 'external_reference' },
  'javascript: in a style attribute': { svg: `<svg ${NS}><rect style="background:url(javascript:alert(1))"/></svg>`, reason: 'javascript_url' },
  'escaped url( in CSS': { svg: `<svg ${NS}><style>rect { fill: u\\rl(https://evil.example/x) }</style></svg>`, reason: 'css' },
  'xml:base re-pointing fragments': { svg: `<svg ${NS} xml:base="https://evil.example/"><use href="#a"/></svg>`, reason: 'external_reference' },
  'default attributes from an internal DTD subset': { svg: `<!DOCTYPE svg [<!ATTLIST svg onload CDATA "alert(1)">]><svg ${NS}/>`, reason: 'doctype' },
  'NUL character reference': { svg: `<svg ${NS}><a href="java&#x0;script:alert(1)">x</a></svg>`, reason: 'entity' },
  'zero-width space inside the scheme': { svg: `<svg ${NS}><a href="ja&#8203;vascript:alert(1)">x</a></svg>`, reason: 'javascript_url' },
  'listener element': { svg: `<svg ${NS}><listener event="load" handler="#h"/></svg>`, reason: 'forbidden_element' },
  'IE behavior': { svg: `<svg ${NS}><style>svg { behavior: url(x.htc) }</style></svg>`, reason: 'css' },
  'NUL byte inside a keyword': { svg: `<svg ${NS}><a href="java\u0000script:alert(1)">x</a></svg>`, reason: 'malformed' },
  'not an SVG at all': { svg: '<html><body onload="alert(1)"></body></html>', reason: 'not_svg' },
}

describe('checkSvg', () => {
  it('has a corpus worth the name', () => {
    expect(Object.keys(HOSTILE).length).toBeGreaterThanOrEqual(25)
    expect(Object.keys(BENIGN).length).toBeGreaterThanOrEqual(5)
  })

  for (const [name, svg] of Object.entries(BENIGN)) {
    it(`accepts: ${name}`, () => {
      expect(checkSvg(svg)).toEqual({ safe: true })
    })
  }

  for (const [name, { svg, reason }] of Object.entries(HOSTILE)) {
    it(`refuses: ${name}`, () => {
      const verdict = checkSvg(svg)
      expect(verdict.safe).toBe(false)
      expect(verdict.safe === false && verdict.reason).toBe(reason)
    })
  }

  it('is not fooled by an SVG that puts the payload after a harmless prefix', () => {
    const base = BENIGN['Figma export with clip path']
    expect(checkSvg(base.replace('</svg>', '<a href="javascript:alert(1)"><rect/></a></svg>')).safe).toBe(false)
    expect(checkSvg(base.replace('<defs>', '<defs><script>alert(1)</script>')).safe).toBe(false)
    expect(checkSvg(base.replace('fill="white"', 'fill="url(https://evil.example/x)"')).safe).toBe(false)
  })

  it('allows fragment and raster references only', () => {
    expect(checkSvg(`<svg ${NS}><a href=""><rect/></a></svg>`).safe).toBe(true)
    expect(checkSvg(`<svg ${NS}><a href="#top"><rect/></a></svg>`).safe).toBe(true)
    expect(checkSvg(`<svg ${NS}><a href="https://example.com"><rect/></a></svg>`)).toMatchObject({ safe: false, reason: 'external_reference' })
    expect(checkSvg(`<svg ${NS}><image href="data:image/gif;base64,R0lGODlhAQABAAAAACw="/></svg>`).safe).toBe(true)
    expect(checkSvg(`<svg ${NS}><image href="data:image/bmp;base64,Qk0="/></svg>`)).toMatchObject({ safe: false, reason: 'data_url' })
  })
})
