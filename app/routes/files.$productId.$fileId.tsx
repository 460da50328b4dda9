import { redirect, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { z } from 'zod'
import { filesService } from '#app/media/files-service.server.ts'
import { mediaOrigins } from '#app/media/origins.server.ts'
import { canViewProductFile } from '#app/models/access.server.ts'
import { getProductFile } from '#app/models/product-file.server.ts'
import { requireUser } from '#app/auth/auth.server.ts'
import { notFound, requireSchool } from '#app/utils/request.server.ts'
import { parseWith } from '#app/utils/validation.ts'

// ?mode=open shows a PDF or an image in the browser; anything else downloads it.
const QuerySchema = z.object({ mode: z.enum(['open', 'download']).optional() })

/**
 * GET /files/:productId/:fileId → 302 to a fresh signed URL on the media host (ADR 011). The ids
 * are looked up in this school first (another school's: 404 for everyone); signed out → /login and
 * back here; signed in without access → 404 (never "forbidden": the file's existence stays private).
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  const productId = params.productId ?? ''
  const fileId = params.fileId ?? ''
  const file = await getProductFile(context.db, tenant.id, productId, fileId)
  if (!file) notFound()
  const user = await requireUser(request, context)
  if (!(await canViewProductFile(context.db, tenant.id, user.id, productId, fileId))) notFound()
  const query = parseWith(QuerySchema, Object.fromEntries(new URL(request.url).searchParams))
  if (!query.ok) throw new Response('Bad Request', { status: 400 })
  const viewable = file.kind === 'pdf' || file.contentType.startsWith('image/')
  const disposition = query.data.mode === 'open' && viewable ? 'inline' : 'attachment'
  const env = context.cloudflare.env
  const signed = await filesService(env, tenant.id, mediaOrigins(env, request)).sign(file.key, disposition)
  if (!signed.ok) {
    if (signed.status === 404) notFound()
    throw new Response('Bad Gateway', { status: 502 })
  }
  // The signed URL lives minutes: never cache the redirect to it.
  return redirect(signed.body.url, { headers: { 'Cache-Control': 'private, no-store' } })
}

/** Never rendered (the loader always redirects or refuses): a page route so refusals show the school's 404 page. */
export default function FileDownload() {
  return null
}
