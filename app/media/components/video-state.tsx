import { videoStateTone } from '#app/domain/video-view.ts'
import type { VideoState } from '#app/domain/video-state.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { cx } from '#app/components/ui.tsx'

export function VideoStateBadge({ state }: { state: VideoState }) {
  const t = useT()
  const tone = videoStateTone(state)
  return (
    <span
      data-video-state={state}
      className={cx(
        'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold',
        tone === 'good' && 'bg-green-100 text-green-800',
        tone === 'bad' && 'bg-red-100 text-red-800',
        tone === 'progress' && 'bg-amber-100 text-amber-800',
        tone === 'neutral' && 'bg-slate-100 text-slate-700',
      )}
    >
      {t(`videos.state.${state}`)}
    </span>
  )
}
