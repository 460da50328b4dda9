import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { lecturePdf } from '#app/player/lecture-routes.server.ts'

// GET /lecture/{id}/pdf[?component=…]: redirect to a short-lived signed URL of the lecture PDF or a file component.
export const loader = (args: LoaderFunctionArgs) => lecturePdf(args)
