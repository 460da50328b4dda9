// A community gallery's grid (seed 000 §2 widget 4: 4 per row in the community gallery) opening
// the shared lightbox (app/storefront/components/lightbox.tsx): previous, next, close, thumbnails,
// caption (the post's title and author, with a link to the post), swipe. Pictures show as they
// are; videos (YouTube/Vimeo embeds, uploaded videos once they play) as a tile and, in the
// lightbox, their player.
import { useEffect, useId, useState } from 'react'
import { Link } from '@remix-run/react'
import { LightboxDialog, useLightbox, type LightboxSlide } from '#app/storefront/components/lightbox.tsx'
import { cx } from '#app/components/ui.tsx'
import { useT } from '#app/utils/i18n-react.ts'
import type { GalleryItem } from '../gallery.server.ts'

function VideoTile({ title, small }: { title?: string; small?: boolean }) {
  const t = useT()
  return (
    <span className={cx('flex flex-col items-center justify-center gap-1 bg-slate-800 text-white', small ? 'h-12 w-16' : 'aspect-square w-full p-3')}>
      {/* An icon, not a ▶ character: text in a button must also be in its name (WCAG 2.5.3). */}
      <svg aria-hidden="true" viewBox="0 0 16 16" className={small ? 'size-4' : 'size-9'} fill="currentColor">
        <path d="M4 2.5v11l9-5.5z" />
      </svg>
      {small ? null : (
        <>
          <span className="rounded bg-white/15 px-1.5 py-0.5 text-xs font-medium uppercase tracking-wide">{t('community.gallery.video')}</span>{' '}
          <span className="line-clamp-2 text-center text-sm">{title}</span>
        </>
      )}
    </span>
  )
}

export function GalleryGrid({ items }: { items: GalleryItem[] }) {
  const t = useT()
  const count = items.length
  const lightbox = useLightbox(count, false)
  const titleId = `${useId()}-gallery-dialog-title`
  // Once hydrated, tiles are buttons that open the lightbox (tests wait for data-hydrated); before, links to the posts.
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  const slides: LightboxSlide[] = items.map((item) => ({
    media:
      item.kind === 'image' && item.imageUrl ? (
        <img src={item.imageUrl} alt={t('community.gallery.image_alt', { title: item.title })} draggable={false} className="max-h-[70vh] w-auto max-w-full object-contain" data-gallery-media="image" />
      ) : (
        <div className="aspect-video w-[min(80vw,60rem)] overflow-hidden rounded-lg bg-black" data-gallery-media="video">
          <iframe
            src={item.videoSrc ?? undefined}
            title={t('community.gallery.video_title', { title: item.title })}
            className="size-full"
            allow="encrypted-media; picture-in-picture; fullscreen"
            allowFullScreen
            referrerPolicy="strict-origin-when-cross-origin"
          />
        </div>
      ),
    caption: (
      <>
        {t('community.gallery.caption', { title: item.title, author: item.authorName })}
        {' — '}
        <Link to={`/community/posts/${item.id}`} className="underline hover:text-white" data-gallery-post-link>
          {t('community.gallery.go_to_post')}
        </Link>
      </>
    ),
    thumb: item.kind === 'image' && item.imageUrl ? <img src={item.imageUrl} alt="" loading="lazy" className="h-12 w-16 object-cover" /> : <VideoTile small />,
  }))
  return (
    <>
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-gallery-grid data-columns="4" data-hydrated={hydrated ? 'true' : undefined}>
        {items.map((item, i) => {
          const tile =
            item.kind === 'image' && item.imageUrl ? (
              <img src={item.imageUrl} alt="" loading="lazy" decoding="async" className="aspect-square h-auto w-full object-cover transition hover:scale-105" />
            ) : (
              <VideoTile title={item.title} />
            )
          const tileClass = 'block w-full overflow-hidden rounded-lg focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none'
          return (
            <li key={item.id} data-gallery-item={item.id} data-kind={item.kind}>
              {hydrated ? (
                <button
                  type="button"
                  onClick={(e) => lightbox.open(i, e.currentTarget)}
                  // A video tile shows its words ("Video", the title): the name starts with them (WCAG 2.5.3).
                  aria-label={item.kind === 'image' ? t('community.gallery.open', { title: item.title, index: i + 1, count }) : `${t('community.gallery.video')} ${item.title} ${t('community.gallery.position', { index: i + 1, count })}`}
                  aria-haspopup="dialog"
                  data-gallery-thumb={i}
                  className={tileClass}
                >
                  {tile}
                </button>
              ) : (
                // Without JavaScript a tile is a link to its post.
                <a href={`/community/posts/${item.id}`} aria-label={item.kind === 'image' ? item.title : `${t('community.gallery.video')} ${item.title}`} data-gallery-thumb={i} className={tileClass}>
                  {tile}
                </a>
              )}
            </li>
          )
        })}
      </ul>
      <LightboxDialog
        lightbox={lightbox}
        slides={slides}
        titleId={titleId}
        labels={{
          dialog: t('community.gallery.dialog'),
          previous: t('community.gallery.previous'),
          next: t('community.gallery.next'),
          open: (index, n) => t('community.gallery.open_short', { index, count: n }),
        }}
      />
    </>
  )
}
