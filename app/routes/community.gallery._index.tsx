// /community/gallery (seed 000 route list, widget 4/16): pictures and ready videos of every topic the
// viewer may read, 4 per row with the lightbox, paged by keyset (?before=). Visitors log in first.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { GalleryPage } from '#app/community/components/gallery-page.tsx'
import { loadGalleryPage } from '#app/community/gallery.server.ts'
import { getT } from '#app/utils/request.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.pageTitle }, { name: 'robots', content: 'noindex' }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer: _viewer, ...page } = await loadGalleryPage(request, context, null)
  return { ...page, pageTitle: getT(request, context)('community.gallery.all_title') }
}

export default function CommunityGallery() {
  return <GalleryPage data={useLoaderData<typeof loader>()} />
}
