// POST /home/videos/:videoId/discard (JSON, app/media/video-contract.ts). Resource route: staff only, tenant from the host.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { videoAction } from '#app/media/video-routes.server.ts'
import { actionOnlyLoader } from '#app/utils/request.server.ts'

export const loader = actionOnlyLoader

export async function action(args: ActionFunctionArgs) {
  return videoAction('discard', args)
}
