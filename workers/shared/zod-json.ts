// Worker JSON bodies through Hono's validator with a zod schema (issue 20, convention 5): the
// handler reads the checked body with `c.req.valid('json')`; a body that does not fit is answered
// by the worker's own `invalid`, so each worker keeps its error shape.
import type { Context, MiddlewareHandler } from 'hono'
import { validator } from 'hono/validator'
import type { z } from 'zod'

/** Why a body was refused: not JSON at all, or JSON the schema rejects. */
export type JsonProblem = { json: false } | { json: true; input: unknown; error: z.ZodError }

// Any route's context: their Variables differ.
export type InvalidJson = (c: Context<any>, problem: JsonProblem) => Response | Promise<Response>

const NOT_JSON = Symbol('not JSON')

/** The body as JSON whatever its Content-Type says (as the workers always read it), or NOT_JSON. */
async function jsonOf(c: Context): Promise<unknown> {
  try {
    return await c.req.json()
  } catch {
    return NOT_JSON
  }
}

/**
 * The body checked against `schema`, for a handler that must look at something else first (a
 * peer that checks its auth or faults before the body); other routes take `zodJson`. A body that is
 * not JSON is checked as `undefined`: a schema with a fallback (`.catch`, `.default`) takes it.
 */
export async function checkJson<T extends z.ZodTypeAny>(c: Context, schema: T): Promise<{ ok: true; data: z.output<T> } | { ok: false; problem: JsonProblem }> {
  const input = await jsonOf(c)
  const parsed = schema.safeParse(input === NOT_JSON ? undefined : input)
  if (parsed.success) return { ok: true, data: parsed.data as z.output<T> }
  return { ok: false, problem: input === NOT_JSON ? { json: false } : { json: true, input, error: parsed.error } }
}

/** Hono's validator with `schema`: the handler reads `c.req.valid('json')`; a body that does not fit is answered by `invalid`. */
export function zodJson<T extends z.ZodTypeAny>(schema: T, invalid: InvalidJson) {
  const check = async (c: Context): Promise<z.output<T> | Response> => {
    const checked = await checkJson(c, schema)
    return checked.ok ? checked.data : invalid(c, checked.problem)
  }
  const validate = validator('json', (_value, c) => check(c))
  // Hono's validator answers a malformed application/json body with its own text 400 before the
  // check runs: such a body is checked here, so the worker's `invalid` has the last word.
  const middleware: MiddlewareHandler = async (c, next) => {
    if ((await jsonOf(c)) !== NOT_JSON) return validate(c, next)
    const checked = await check(c)
    if (checked instanceof Response) return checked
    c.req.addValidatedData('json', checked as object)
    await next()
  }
  return middleware as typeof validate
}
