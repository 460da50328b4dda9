// A gallery preview (seed 000 widget 16, §9): the first pictures and videos of the community or
// of one topic, opening the lightbox, and a "see all" link to the full gallery at 6 or more items.
// The page's loader reads it with loadGalleryPreview (app/community/gallery.server.ts). Nothing
// shows while the gallery is empty.
import { Link } from '@remix-run/react'
import { useT } from '#app/utils/i18n-react.ts'
import type { GalleryPreviewData } from '../gallery.server.ts'
import { GalleryGrid } from './gallery-grid.tsx'

export function GalleryPreview({ preview }: { preview: GalleryPreviewData }) {
  const t = useT()
  if (preview.items.length === 0) return null
  return (
    <section aria-labelledby="community-gallery-preview" className="space-y-3" data-gallery-preview>
      <div className="flex items-baseline justify-between gap-4">
        <h2 id="community-gallery-preview" className="text-xl font-semibold text-slate-900">
          {t('community.gallery.title')}
        </h2>
        {preview.seeAllHref ? (
          <Link to={preview.seeAllHref} className="text-sm text-brand-700 underline" data-gallery-see-all>
            {t('community.gallery.see_all')}
          </Link>
        ) : null}
      </div>
      <GalleryGrid items={preview.items} />
    </section>
  )
}
