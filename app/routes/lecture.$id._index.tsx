import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { lectureJson } from '#app/player/lecture-routes.server.ts'

// GET /lecture/{id}: the lecture as JSON (title, kind, body html, components, the viewer's progress); 403 without access.
export const loader = (args: LoaderFunctionArgs) => lectureJson(args)
