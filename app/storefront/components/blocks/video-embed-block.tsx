import type { BlockProps } from '#app/domain/blocks.ts'
import { videoEmbedUrl } from '#app/domain/video-embed.ts'
import type { BlockContext } from '#app/domain/block-context.ts'
import { useT } from '#app/utils/i18n-react.ts'

/** YouTube (privacy-enhanced host) or Vimeo from the creator's link; Bunny via the signed URL in the context. 16:9, lazy. */
export function VideoEmbedBlock({ id, props, context }: { id: string; props: BlockProps<'video_embed'>; context: BlockContext }) {
  const t = useT()
  const src = props.provider === 'bunny' ? (context.bunnyEmbeds[id] ?? null) : videoEmbedUrl(props.provider, props.url)
  const title = props.title || t('blocks.video.title')
  return (
    <section data-block-type="video_embed" id={`block-${id}`} className="mx-auto max-w-4xl">
      {props.title ? <h2 className="mb-4 text-2xl font-bold text-slate-900">{props.title}</h2> : null}
      <div className="relative aspect-video w-full overflow-hidden rounded-xl bg-slate-900">
        {src ? (
          <iframe
            src={src}
            title={title}
            loading="lazy"
            allow="encrypted-media; picture-in-picture; fullscreen"
            allowFullScreen
            referrerPolicy="strict-origin-when-cross-origin"
            className="absolute inset-0 h-full w-full border-0"
          />
        ) : (
          <p className="absolute inset-0 flex items-center justify-center p-4 text-center text-sm text-slate-200">{t('blocks.video.unavailable')}</p>
        )}
      </div>
    </section>
  )
}
