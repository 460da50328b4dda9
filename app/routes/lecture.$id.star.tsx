import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { progressAction } from '#app/player/lecture-routes.server.ts'
import { noStoreJson } from '#app/utils/responses.server.ts'

// POST /lecture/{id}/star (seed 000 §7 lecture family); the logic is in app/player/lecture-routes.server.ts.
export const action = (args: ActionFunctionArgs) => progressAction('star', args)
export const loader = () => noStoreJson({ error: 'error.not_found.title' }, 405)
