// POST /community/post-videos/{id}/grant (JSON): a tus grant for the post's video, its author only.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { videoGrant } from '#app/community/post-video.server.ts'
import { actionOnlyLoader } from '#app/utils/request.server.ts'

export const loader = actionOnlyLoader
export const action = (args: ActionFunctionArgs) => videoGrant('post', args)
