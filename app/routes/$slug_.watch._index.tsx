import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { continueWatching } from '#app/player/watch-page.server.ts'

// GET /{slug}/watch → the lecture to continue (last opened), else the course's first open lecture.
export const loader = ({ request, context, params }: LoaderFunctionArgs) => continueWatching(request, context, params.slug ?? '')
