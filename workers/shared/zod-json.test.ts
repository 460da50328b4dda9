// zodJson (workers/shared/zod-json.ts): Hono's validator with a zod schema, each worker's own answer
// for a body that does not fit.
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { checkJson, zodJson } from './zod-json.ts'

const schema = z.object({ hostname: z.string().min(1).max(20) })

const app = new Hono()
app.post(
  '/strict',
  zodJson(schema, (c, problem) => c.json({ error: 'validation.required', json: problem.json }, 400)),
  (c) => c.json({ got: c.req.valid('json') }),
)
app.post(
  '/unprocessable',
  zodJson(schema, (c) => c.json({ error: 'media.error.upload_failed' }, 422)),
  (c) => c.json({ got: c.req.valid('json') }),
)
app.post(
  '/fallback',
  zodJson(z.object({ autoplay: z.boolean().optional() }).catch({}), (c) => c.json({ error: 'never' }, 400)),
  (c) => c.json({ got: c.req.valid('json') }),
)
// A route that looks at something else before the body.
app.post('/late', async (c) => {
  if (c.req.query('known') !== '1') return c.json({ error: 'not_found' }, 404)
  const checked = await checkJson(c, schema)
  return checked.ok ? c.json({ got: checked.data }) : c.json({ error: 'bad', json: checked.problem.json }, 400)
})

async function send(path: string, body: string, headers: Record<string, string> = { 'Content-Type': 'application/json' }) {
  const res = await app.request(path, { method: 'POST', headers, body })
  return { status: res.status, body: (await res.json()) as unknown }
}

describe('zodJson', () => {
  it('hands the parsed body (unknown keys dropped) to the handler', async () => {
    expect(await send('/strict', JSON.stringify({ hostname: 'kurs.example.pl', extra: 1 }))).toEqual({ status: 200, body: { got: { hostname: 'kurs.example.pl' } } })
  })

  it("answers a body that does not fit with the route's own 400 / 422 JSON", async () => {
    expect(await send('/strict', JSON.stringify({ hostname: '' }))).toEqual({ status: 400, body: { error: 'validation.required', json: true } })
    expect(await send('/strict', JSON.stringify([1, 2]))).toEqual({ status: 400, body: { error: 'validation.required', json: true } })
    expect(await send('/unprocessable', JSON.stringify({ host: 'x' }))).toEqual({ status: 422, body: { error: 'media.error.upload_failed' } })
  })

  it("answers malformed JSON with the route's answer, not Hono's text 400", async () => {
    expect(await send('/strict', '{"hostname": ')).toEqual({ status: 400, body: { error: 'validation.required', json: false } })
    expect(await send('/strict', '')).toEqual({ status: 400, body: { error: 'validation.required', json: false } })
  })

  it('reads a JSON body whatever its Content-Type, as the workers always did', async () => {
    expect(await send('/strict', JSON.stringify({ hostname: 'a.pl' }), {})).toEqual({ status: 200, body: { got: { hostname: 'a.pl' } } })
    expect(await send('/strict', JSON.stringify({ hostname: 'a.pl' }), { 'Content-Type': 'text/plain' })).toEqual({ status: 200, body: { got: { hostname: 'a.pl' } } })
  })

  it('gives a schema with a fallback its fallback for a body that is not JSON or does not fit', async () => {
    expect(await send('/fallback', 'nope')).toEqual({ status: 200, body: { got: {} } })
    expect(await send('/fallback', JSON.stringify({ autoplay: 'yes' }))).toEqual({ status: 200, body: { got: {} } })
    expect(await send('/fallback', JSON.stringify({ autoplay: true }))).toEqual({ status: 200, body: { got: { autoplay: true } } })
  })

  it('checkJson lets a handler check the body after its own checks', async () => {
    expect(await send('/late', 'nope')).toEqual({ status: 404, body: { error: 'not_found' } })
    expect(await send('/late?known=1', 'nope')).toEqual({ status: 400, body: { error: 'bad', json: false } })
    expect(await send('/late?known=1', JSON.stringify({ hostname: '' }))).toEqual({ status: 400, body: { error: 'bad', json: true } })
    expect(await send('/late?known=1', JSON.stringify({ hostname: 'a.pl' }))).toEqual({ status: 200, body: { got: { hostname: 'a.pl' } } })
  })
})
