import { describe, expect, it } from 'vitest'
import { csvCell, csvResponse, toCsv } from './csv.ts'

describe('csv', () => {
  it('quotes per RFC 4180 only when needed', () => {
    expect(csvCell('plain')).toBe('plain')
    expect(csvCell('a,b')).toBe('"a,b"')
    expect(csvCell('say "hi"')).toBe('"say ""hi"""')
    expect(csvCell('two\nlines')).toBe('"two\nlines"')
    expect(csvCell(null)).toBe('')
    expect(csvCell(42)).toBe('42')
  })

  it('neutralises cells a spreadsheet would run as formulas', () => {
    expect(csvCell('=HYPERLINK("http://evil")')).toBe(`"'=HYPERLINK(""http://evil"")"`)
    expect(csvCell('+48 600 100 200')).toBe("'+48 600 100 200")
    expect(csvCell('-2+3')).toBe("'-2+3")
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)")
    expect(csvCell('\tcmd')).toBe("'\tcmd")
    expect(csvCell('a=b')).toBe('a=b')
    // Numbers we write ourselves are not user text.
    expect(csvCell(-5)).toBe('-5')
  })

  it('writes a BOM, a header and CRLF rows; the response is a UTF-8 attachment', async () => {
    const body = toCsv(['Name', 'Email'], [['Zażółć', 'a@example.com'], ['x,y', null]])
    expect(body).toBe('\uFEFFName,Email\r\nZażółć,a@example.com\r\n"x,y",\r\n')
    const res = csvResponse(body, 'students 2030-01-01.csv')
    expect(res.headers.get('Content-Type')).toBe('text/csv; charset=utf-8')
    expect(res.headers.get('Content-Disposition')).toBe('attachment; filename="students_2030-01-01.csv"')
    const bytes = new Uint8Array(await res.arrayBuffer())
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
  })
})
