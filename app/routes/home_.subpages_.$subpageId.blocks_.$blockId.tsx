// POST /home/subpages/{subpageId}/blocks/{blockId} — update a block's props (JSON in `props`, validated
// again with the type's zod schema) or delete it. The editor's script form (it sends `_js`) gets the
// field errors keyed by props path; a native form post goes back to the editor with the problem named.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { z } from 'zod'
import { issuesToErrors } from '#app/storefront/components/block-forms/parts.tsx'
import { resourceError } from '#app/courses/lecture-form.server.ts'
import { deleteBlock, getBlock, updateBlock } from '#app/models/block.server.ts'
import { getSubpage } from '#app/models/subpage.server.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { actionOnlyLoader, notFound, requireSchool } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { type FieldErrors, readFormFields } from '#app/utils/validation.ts'

const ActionSchema = z.discriminatedUnion('intent', [
  z.object({
    intent: z.literal('save'),
    props: z.string().min(1).max(200_000),
  }),
  z.object({ intent: z.literal('delete') }),
])

export const loader = actionOnlyLoader

export async function action(args: ActionFunctionArgs) {
  const { request, context, params } = args
  const tenant = requireSchool(context)
  // Another school's subpage or block: 404 before anything else.
  const subpage = await getSubpage(context.db, tenant.id, params.subpageId ?? '')
  const block = subpage ? await getBlock(context.db, tenant.id, subpage.id, params.blockId ?? '') : undefined
  if (!subpage || !block) notFound()
  await requireStaff(args)
  const base = `/home/subpages/${subpage.id}/blocks`
  const back = `${base}?edit=${block.id}`
  const form = await readFormFields(request)
  if (!form) {
    return resourceError(request, back, {
      form: { key: 'validation.invalid' },
    })
  }
  const refuse = (errors: FieldErrors, status = 400) => (form._js === '1' ? formError(errors, {}, status) : resourceError(request, back, errors, {}, status))
  const parsed = ActionSchema.safeParse(form)
  if (!parsed.success) return refuse({ form: { key: 'validation.invalid' } })

  if (parsed.data.intent === 'delete') {
    await deleteBlock(context.db, tenant.id, subpage.id, block.id)
    return redirectWithFlash(request, base, { done: 'deleted', message: 'subpages.done.deleted' })
  }

  let props: unknown
  try {
    props = JSON.parse(parsed.data.props)
  } catch {
    return refuse({ form: { key: 'subpages.error.props_json' } })
  }
  const result = await updateBlock(context.db, tenant.id, subpage.id, block.id, props)
  if (!result) notFound()
  if (!result.ok) {
    if (result.problem === 'invalid')
      return refuse({
        form: { key: 'subpages.error.props' },
        ...issuesToErrors(result.issues),
      })
    return refuse(
      {
        form: {
          key: `subpages.error.${result.problem === 'too_many' ? 'too_many_blocks' : result.problem}`,
        },
      },
      422
    )
  }
  return redirectWithFlash(request, base, { done: 'saved', message: 'subpages.done.saved' })
}
