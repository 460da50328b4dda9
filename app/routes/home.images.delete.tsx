// POST /home/images/delete (JSON, app/media/contract.ts). Resource route: staff only, tenant from the host.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { imageAction } from '#app/media/image-routes.server.ts'
import { actionOnlyLoader } from '#app/utils/request.server.ts'

export const loader = actionOnlyLoader

export async function action(args: ActionFunctionArgs) {
  return imageAction('delete', args)
}
