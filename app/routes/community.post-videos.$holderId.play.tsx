// GET /community/post-videos/{id}/play: 302 to a short-lived signed player URL of the post's ready
// video, for readers of its topic (the page's iframe points here).
import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { videoPlay } from '#app/community/post-video.server.ts'

export const loader = (args: LoaderFunctionArgs) => videoPlay('post', args)
