import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { ACCESS_REASON_MAX, FILE_PRODUCT_DESCRIPTION_MAX, FILE_PRODUCT_TITLE_MAX, FileProductEditor } from '#app/catalogue/components/file-product-page.tsx'
import { filesService } from '#app/media/files-service.server.ts'
import { mediaOrigins } from '#app/media/origins.server.ts'
import { grantProductAccess, listProductAccess, revokeProductAccess } from '#app/models/access.server.ts'
import { getProductFile, listProductFiles, removeProductFile } from '#app/models/product-file.server.ts'
import { getProduct, updateProduct } from '#app/models/product.server.ts'
import { getUserByEmail } from '#app/models/user.server.ts'
import { requireStaff, staffAction } from '#app/auth/staff.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { getT, notFound, requireSchool } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { email, msg, text } from '#app/utils/validation.ts'

const TITLE_MAX = FILE_PRODUCT_TITLE_MAX
const DESCRIPTION_MAX = FILE_PRODUCT_DESCRIPTION_MAX
const REASON_MAX = ACCESS_REASON_MAX

/** Optional one-line text: trimmed, '' → null, no control characters. */
const optionalLine = (max: number) =>
  z
    .string()
    .optional()
    .transform((s) => (s ?? '').trim())
    .pipe(z.string().max(max).refine((s) => !/[\u0000-\u001f\u007f]/.test(s), { message: msg('validation.invalid') }))
    .transform((s) => s || null)

const id = z.string().min(1).max(64)
const UpdateSchema = z.object({
  title: text({ max: TITLE_MAX }),
  // Multi-line: new lines and tabs allowed, other control characters not.
  description: z
    .string()
    .optional()
    .transform((s) => (s ?? '').replace(/\r\n/g, '\n').trim())
    .pipe(z.string().max(DESCRIPTION_MAX).refine((s) => !/[\u0000-\u0008\u000b-\u001f\u007f]/.test(s), { message: msg('validation.invalid') })),
  published: z.literal('on').optional(),
})
const RemoveFileSchema = z.object({ fileId: id })
const GrantSchema = z.object({ email: email(), reason: optionalLine(REASON_MAX) })
const RevokeSchema = z.object({ userId: id, reason: optionalLine(REASON_MAX) })

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

/** The product is looked up in this school first: another school's id is 404 for everyone. */
async function loadFileProduct(tenant: { id: string }, { context, params }: LoaderFunctionArgs) {
  return (await getProduct(context.db, tenant.id, params.productId ?? '', 'file')) ?? notFound()
}

export async function loader(args: LoaderFunctionArgs) {
  const product = await loadFileProduct(requireSchool(args.context), args)
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const [files, access] = await Promise.all([listProductFiles(context.db, tenant.id, product.id), listProductAccess(context.db, tenant.id, product.id)])
  return {
    title: `${product.title} · ${getT(request, context)('files.title')} · ${tenant.name}`,
    product: { id: product.id, title: product.title, description: product.description, published: product.published },
    files: files.map((f) => ({ id: f.id, filename: f.filename, size: f.size, kind: f.kind })),
    access: access.map((a) => ({ userId: a.userId, name: a.name, email: a.email, source: a.source, reason: a.reason, status: a.status, startsAt: a.startsAt, expiresAt: a.expiresAt, revokedAt: a.revokedAt, revokedReason: a.revokedReason })),
  }
}

type Done = 'saved' | 'file_removed' | 'granted' | 'revoked'
const back = (request: Request, productId: string, done: Done) => redirectWithFlash(request, `/home/files/${productId}`, { done, message: `files.done.${done}` })

export const action = staffAction({
  load: loadFileProduct,
  intents: (intent) => ({
    update: intent(UpdateSchema, async (data, { tenant, request, context, loaded: product }) => {
      await updateProduct(context.db, tenant.id, product.id, { title: data.title, description: data.description, published: data.published === 'on' })
      throw back(request, product.id, 'saved')
    }),
    remove_file: intent(RemoveFileSchema, async (data, { tenant, request, context, loaded: product }) => {
      const file = await getProductFile(context.db, tenant.id, product.id, data.fileId)
      if (!file) notFound()
      // The stored object goes first (its row's delete removes the product_files row too).
      const removed = await filesService(context.cloudflare.env, tenant.id, mediaOrigins(context.cloudflare.env, request)).remove(file.key, 'file_product')
      if (!removed.ok && removed.status !== 404) return formError({ form: { key: removed.error } }, { intent: 'remove_file' }, 502)
      await removeProductFile(context.db, tenant.id, product.id, file.id)
      throw back(request, product.id, 'file_removed')
    }),
    grant: intent(GrantSchema, async (data, { tenant, user, request, context, loaded: product }) => {
      const values = { intent: 'grant', email: data.email, reason: data.reason ?? '' }
      const student = await getUserByEmail(context.db, tenant.id, data.email)
      if (!student) return formError({ email: { key: 'files.access.unknown_email' } }, values, 404)
      if (student.role !== 'student') return formError({ email: { key: 'files.access.staff' } }, values, 409)
      const result = await grantProductAccess(context.db, tenant.id, { productId: product.id, userId: student.id, source: 'manual', reason: data.reason, grantedBy: user.id })
      if (result === 'already') return formError({ email: { key: 'files.access.already' } }, values, 409)
      if (result === 'not_found') notFound()
      throw back(request, product.id, 'granted')
    }),
    revoke: intent(RevokeSchema, async (data, { tenant, request, context, loaded: product }) => {
      if (!(await revokeProductAccess(context.db, tenant.id, product.id, data.userId, data.reason))) {
        return formError({ form: { key: 'files.access.not_active' } }, { intent: 'revoke' }, 404)
      }
      throw back(request, product.id, 'revoked')
    }),
  }),
})

export default function FileProductPage() {
  return <FileProductEditor data={useLoaderData<typeof loader>()} actionData={useActionData<typeof action>()} />
}
