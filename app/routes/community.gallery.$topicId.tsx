// /community/gallery/{topicId} (seed 000 route list, widget 4/16): one topic's pictures and ready
// videos, 4 per row with the lightbox, paged by keyset (?before=). Another school's topic, or one
// the viewer may not read, is 404 (before sign-in when it is not this school's).
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { GalleryPage } from '#app/community/components/gallery-page.tsx'
import { loadGalleryPage } from '#app/community/gallery.server.ts'
import { getT } from '#app/utils/request.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.pageTitle }, { name: 'robots', content: 'noindex' }]

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { viewer: _viewer, ...page } = await loadGalleryPage(request, context, params.topicId ?? '')
  return { ...page, pageTitle: getT(request, context)('community.gallery.topic_title', { topic: page.topic?.title ?? '' }) }
}

export default function TopicGallery() {
  return <GalleryPage data={useLoaderData<typeof loader>()} />
}
