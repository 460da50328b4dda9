// Shared by the JSON resource routes /home/videos/grant, /home/videos/:videoId/{refresh,discard}
// (video-contract.ts): POST only, staff only, JSON body validated here, tenant from the host, the
// media worker's answer passed on.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { z } from 'zod'
import { getVideo } from '#app/models/video.server.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { requireSchool } from '#app/utils/request.server.ts'
import type { MediaServiceResult } from './media-service.server.ts'
import { videosService } from './videos-service.server.ts'
import { noStoreJson as json } from '#app/utils/responses.server.ts'

export const GrantSchema = z.object({
  title: z.string().max(200).optional(),
  filename: z.string().min(1).max(255),
  size: z.number().int().nonnegative(),
  contentType: z.string().max(100),
  videoId: z.string().min(1).max(64).optional(),
})


export function answer<T>(result: MediaServiceResult<T>) {
  if (result.ok) return json(result.body)
  const status = result.status >= 400 && result.status < 600 ? result.status : 502
  return json({ error: result.error, ...(result.values ? { values: result.values } : {}) }, status)
}

async function staffOnly(args: ActionFunctionArgs) {
  const { tenant, user } = await requireStaff(args)
  return { tenant, user, service: videosService(args.context.cloudflare.env, tenant.id) }
}

/** The uploader's grant request (JSON), or the 400 answer for a broken one. */
export async function readGrantRequest(request: Request): Promise<{ ok: true; data: z.output<typeof GrantSchema> } | { ok: false; response: Response }> {
  let raw: unknown
  try {
    raw = await request.json()
  } catch {
    return { ok: false, response: json({ error: 'media.error.upload_failed' }, 400) }
  }
  const parsed = GrantSchema.safeParse(raw)
  if (parsed.success) return { ok: true, data: parsed.data }
  const filenameIssue = parsed.error.issues.some((i) => i.path[0] === 'filename')
  return { ok: false, response: json({ error: filenameIssue ? 'media.error.bad_extension' : 'media.error.upload_failed' }, 400) }
}

export async function grantAction(args: ActionFunctionArgs) {
  if (args.request.method !== 'POST') return json({ error: 'error.not_found.title' }, 405)
  const { user, service } = await staffOnly(args)
  const read = await readGrantRequest(args.request)
  if (!read.ok) return read.response
  return answer(await service.grant({ ...read.data, createdBy: user.id }))
}

/** refresh: read the state from Bunny; discard: the uploader cancelled (video removed at Bunny too). */
export async function videoAction(kind: 'refresh' | 'discard', args: ActionFunctionArgs) {
  if (args.request.method !== 'POST') return json({ error: 'error.not_found.title' }, 405)
  const tenant = requireSchool(args.context)
  // Another school's id, or none: 404 for everyone, before sign-in is even asked for.
  const video = await getVideo(args.context.db, tenant.id, args.params.videoId ?? '')
  if (!video) return json({ error: 'error.not_found.title' }, 404)
  const { service } = await staffOnly(args)
  if (kind === 'refresh') return answer(await service.refresh(video.id))
  // Only an upload that never finished may be discarded this way; finished videos are deleted on their page.
  if (video.state !== 'awaiting_upload' && video.state !== 'uploading') return json({ error: 'videos.error.already_uploaded' }, 409)
  return answer(await service.remove(video.id))
}
