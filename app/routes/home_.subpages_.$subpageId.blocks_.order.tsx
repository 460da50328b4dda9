// POST /home/subpages/{subpageId}/blocks/order — reorder blocks: the whole order (drag and drop,
// keyboard) or one step of one block (the Move up / Move down buttons, no JavaScript needed).
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { OrderSchema, resourceError } from '#app/courses/lecture-form.server.ts'
import { moveBlock, reorderBlocks } from '#app/models/block.server.ts'
import { getSubpage } from '#app/models/subpage.server.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { actionOnlyLoader, notFound, requireSchool } from '#app/utils/request.server.ts'
import { parseForm } from '#app/utils/validation.ts'

export const loader = actionOnlyLoader

export async function action(args: ActionFunctionArgs) {
  const { request, context, params } = args
  const tenant = requireSchool(context)
  const subpage = await getSubpage(context.db, tenant.id, params.subpageId ?? '')
  if (!subpage) notFound()
  await requireStaff(args)
  const base = `/home/subpages/${subpage.id}/blocks`
  const parsed = await parseForm(OrderSchema, request)
  if (!parsed.ok)
    return resourceError(request, base, {
      form: { key: 'subpages.error.order' },
    })
  const data = parsed.data
  const ok = 'order' in data ? await reorderBlocks(context.db, tenant.id, subpage.id, data.order) : await moveBlock(context.db, tenant.id, subpage.id, data.id, data.move)
  // A stale page (a block added or removed meanwhile) or a block already at the end: nothing written.
  if (!ok) return resourceError(request, base, { form: { key: 'subpages.error.order' } }, {}, 409)
  return redirectWithFlash(request, base, { done: 'order', message: 'subpages.done.order' })
}
