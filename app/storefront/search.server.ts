// Request helpers of the storefront's script calls (POST /search, /lead, /json/reviews). The
// search query itself is searchPublishedProducts in app/models/storefront.server.ts.

/** A JSON or form body as a plain object (null when it cannot be read). */
export async function readBody(request: Request): Promise<Record<string, unknown> | null> {
  const type = request.headers.get('Content-Type') ?? ''
  try {
    if (type.includes('application/json')) {
      const value: unknown = await request.json()
      return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null
    }
    const form = await request.formData()
    const out: Record<string, unknown> = {}
    for (const [name, value] of form) if (typeof value === 'string' && !(name in out)) out[name] = value
    return out
  } catch {
    return null
  }
}

export { noStoreJson as jsonAnswer } from '#app/utils/responses.server.ts'
