import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { lectureVideoJson } from '#app/player/lecture-routes.server.ts'

// GET /lecture/{id}/video: a freshly signed player URL; 403 without access or before a drip date.
export const loader = (args: LoaderFunctionArgs) => lectureVideoJson(args)
