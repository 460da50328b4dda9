// /home/subpages/{subpageId}/blocks — the sales-page editor (seed 001 "store a block"): the page's
// blocks with a live preview as visitors will see it, a form made for each block type, add,
// delete (with a confirmation step) and reorder. Adding, deleting and reordering post natively
// without JavaScript; with it, the preview follows the form as the creator types.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { BlockEditorPage, type BlockEditorAnswer } from '#app/storefront/components/block-editor.tsx'
import { defaultBlockProps } from '#app/storefront/components/block-forms/block-form.tsx'
import { issuesToErrors, type EditorOptions } from '#app/storefront/components/block-forms/parts.tsx'
import { mediaOrigins } from '#app/media/origins.server.ts'
import { createBlock, listBlocks } from '#app/models/block.server.ts'
import { listProducts } from '#app/models/product.server.ts'
import { getSubpage } from '#app/models/subpage.server.ts'
import { listVideos } from '#app/models/video.server.ts'
import { loadBlockContext } from '#app/storefront/block-context.server.ts'
import { isBlockType, toParsedBlock, type BlockType, type ParsedBlock } from '#app/domain/blocks.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { getT, notFound, requireSchool } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { msg, readFormFields } from '#app/utils/validation.ts'

const AddSchema = z.object({
  type: z.string().refine(isBlockType, { message: msg('validation.in') }),
  // JSON of the props; empty = the type's defaults (the no-JavaScript "Add block").
  props: z.string().max(200_000).optional(),
})


export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.pageTitle }]

async function requireSubpage(args: LoaderFunctionArgs) {
  // Another school's id: 404 for everyone, before sign-in is asked for.
  const subpage = await getSubpage(args.context.db, requireSchool(args.context).id, args.params.subpageId ?? '')
  if (!subpage) notFound()
  const { tenant, user } = await requireStaff(args)
  return { tenant, subpage, user }
}

export async function loader(args: LoaderFunctionArgs) {
  const { tenant, subpage, user } = await requireSubpage(args)
  const { request, context } = args
  const t = getT(request, context)
  const [rows, productRows, videoRows] = await Promise.all([listBlocks(context.db, tenant.id, subpage.id), listProducts(context.db, tenant.id, { limit: 200 }), listVideos(context.db, tenant.id)])
  const blocks = rows.map((row) => ({
    id: row.id,
    type: row.type,
    parsed: toParsedBlock(row),
  }))
  const parsed = blocks.map((b) => b.parsed).filter((b): b is ParsedBlock => b !== null)
  const blockContext = await loadBlockContext(request, context, tenant.id, parsed, { subpageId: subpage.id, viewerId: user.id, preview: true })
  const options: EditorOptions = {
    mediaOrigin: mediaOrigins(context.cloudflare.env, request).mediaOrigin,
    products: productRows.map((p) => ({ id: p.id, title: p.title })),
    videos: videoRows.map((v) => ({ id: v.id, title: v.title })),
  }
  return {
    pageTitle: `${subpage.title} · ${t('subpages.editor')} · ${tenant.name}`,
    subpage: {
      id: subpage.id,
      title: subpage.title,
      slug: subpage.slug,
      published: subpage.published,
    },
    blocks,
    blockContext,
    options,
  }
}

export async function action(args: ActionFunctionArgs) {
  const { tenant, subpage } = await requireSubpage(args)
  const { request, context } = args
  const form = await readFormFields(request)
  if (!form) return formError({ form: { key: 'validation.invalid' } })
  const parsed = AddSchema.safeParse(form)
  if (!parsed.success) return formError({ form: { key: 'validation.in' } }, { type: String(form.type ?? '').slice(0, 40) })
  const type = parsed.data.type as BlockType
  let props: unknown
  if (parsed.data.props?.trim()) {
    try {
      props = JSON.parse(parsed.data.props)
    } catch {
      return formError({ form: { key: 'subpages.error.props_json' } }, { type })
    }
  } else {
    const [first] = await listProducts(context.db, tenant.id, { limit: 1 })
    props = defaultBlockProps(type, getT(request, context), first?.id ?? '')
  }
  const result = await createBlock(context.db, tenant.id, subpage.id, type, props)
  if (!result) notFound()
  if (!result.ok) {
    if (result.problem === 'invalid')
      return formError(
        {
          form: { key: 'subpages.error.props' },
          ...issuesToErrors(result.issues),
        },
        { type }
      )
    const key = result.problem === 'too_many' ? 'subpages.error.too_many_blocks' : `subpages.error.${result.problem}`
    return formError({ form: { key } }, { type }, 422)
  }
  return redirectWithFlash(request, `/home/subpages/${subpage.id}/blocks`, { done: 'created', message: 'subpages.done.created' })
}

export default function BlockEditor() {
  return <BlockEditorPage data={useLoaderData<typeof loader>()} actionData={useActionData<typeof action>() as BlockEditorAnswer | undefined} />
}
