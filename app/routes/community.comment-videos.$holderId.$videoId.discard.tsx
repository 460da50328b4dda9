// POST /community/comment-videos/{id}/{videoId}/discard (JSON): the uploader's discard call for the comment's video, its author only.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { videoAction } from '#app/community/post-video.server.ts'
import { actionOnlyLoader } from '#app/utils/request.server.ts'

export const loader = actionOnlyLoader
export const action = (args: ActionFunctionArgs) => videoAction('comment', 'discard', args)
