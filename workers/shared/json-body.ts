import type { Context } from 'hono'
import type { z } from 'zod'

/** The request's JSON body checked against a schema; null for a body that is not JSON or does not fit. */
export async function readJsonBody<T extends z.ZodTypeAny>(c: Context, schema: T): Promise<z.output<T> | null> {
  let value: unknown
  try {
    value = await c.req.json()
  } catch {
    return null
  }
  const parsed = schema.safeParse(value)
  return parsed.success ? parsed.data : null
}
