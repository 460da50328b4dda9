// Shared by the JSON resource routes /home/images/{create,complete,delete} (contract.ts): POST
// only, staff only, JSON body validated here, tenant from the host, the worker's answer passed on.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { z } from 'zod'
import { requireStaff } from '#app/auth/staff.server.ts'
import { mediaService, type MediaServiceResult } from './media-service.server.ts'
import { mediaOrigins } from './origins.server.ts'
import { noStoreJson as json } from '#app/utils/responses.server.ts'

/** Contexts the image routes take (owner/admin for now; students get their own contexts later). */
export const IMAGE_ROUTE_CONTEXTS = ['post_image', 'reply_image', 'cover', 'avatar', 'image'] as const

export const ImageSchemas = {
  create: z.object({
    context: z.enum(IMAGE_ROUTE_CONTEXTS),
    filename: z.string().min(1).max(255),
    extension: z.string().max(16),
    size: z.number().int().nonnegative(),
    contentType: z.string().max(100),
  }),
  complete: z.object({ path: z.string().min(1).max(300) }),
  delete: z.object({ path: z.string().min(1).max(300), context: z.enum(IMAGE_ROUTE_CONTEXTS) }),
}


function answer<T>(result: MediaServiceResult<T>, values: Record<string, unknown>) {
  if (result.ok) return json(result.body)
  const status = result.status >= 400 && result.status < 600 ? result.status : 502
  return json({ error: result.error, values: { ...values, ...(result.values ?? {}) } }, status)
}

export async function imageAction<K extends keyof typeof ImageSchemas>(kind: K, { request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return json({ error: 'error.not_found.title' }, 405)
  const { tenant, user } = await requireStaff({ request, context })
  let raw: unknown
  try {
    raw = await request.json()
  } catch {
    return json({ error: 'media.error.upload_failed', values: {} }, 400)
  }
  const parsed = ImageSchemas[kind].safeParse(raw)
  if (!parsed.success) {
    // The only field errors a user can cause are bad extensions; the rest is a broken client.
    const extensionIssue = parsed.error.issues.some((i) => i.path[0] === 'extension')
    return json({ error: extensionIssue ? 'media.error.bad_extension' : 'media.error.upload_failed', values: {} }, 400)
  }
  const service = mediaService(context.cloudflare.env, tenant.id, mediaOrigins(context.cloudflare.env, request))
  if (kind === 'create') {
    const body = parsed.data as z.output<(typeof ImageSchemas)['create']>
    return answer(await service.initiate({ ...body, createdBy: user.id }), {})
  }
  if (kind === 'complete') {
    const body = parsed.data as z.output<(typeof ImageSchemas)['complete']>
    return answer(await service.complete(body.path), { path: body.path })
  }
  const body = parsed.data as z.output<(typeof ImageSchemas)['delete']>
  return answer(await service.remove(body.path, body.context), { path: body.path })
}
