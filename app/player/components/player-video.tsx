// The lecture video (issue 7 item 2): Bunny's player (signed embed URL, autoplay and preload off)
// or a YouTube/Vimeo player in a 16:9 box. Watch progress goes to POST /lecture/{id}/watch: from
// the player's player.js `timeupdate` events when it sends them, otherwise a heartbeat every
// 15 seconds while the player is on screen and the tab visible (counting that time as watched).
import { useEffect, useRef } from 'react'
import { useT } from '#app/utils/i18n-react.ts'
import { postLectureCall } from './player-controls.tsx'

export const HEARTBEAT_SECONDS = 15

export function PlayerVideo({ lectureId, title, url, canSave, watchedSeconds }: { lectureId: string; title: string; url: string; canSave: boolean; watchedSeconds: number }) {
  const t = useT()
  const frame = useRef<HTMLIFrameElement>(null)
  useEffect(() => {
    const iframe = frame.current
    if (!canSave || !iframe) return
    let origin = ''
    try {
      origin = new URL(url).origin
    } catch {
      return
    }
    let visible = false
    let fromPlayer = false
    let position = 0
    let watched = watchedSeconds
    let dirty = false
    const observer = new IntersectionObserver((entries) => (visible = entries.some((e) => e.isIntersecting)))
    observer.observe(iframe)
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== origin || event.source !== iframe.contentWindow) return
      let message: { context?: string; event?: string; value?: { seconds?: number } } | null = null
      try {
        message = typeof event.data === 'string' ? JSON.parse(event.data) : event.data
      } catch {
        return
      }
      if (!message || message.context !== 'player.js') return
      if (message.event === 'ready') iframe.contentWindow?.postMessage(JSON.stringify({ context: 'player.js', version: '0.0.11', method: 'addEventListener', value: 'timeupdate' }), origin)
      if (message.event === 'timeupdate' && typeof message.value?.seconds === 'number') {
        fromPlayer = true
        position = message.value.seconds
        watched = Math.max(watched, position)
        dirty = true
      }
    }
    window.addEventListener('message', onMessage)
    const send = () => {
      if (!dirty) return
      dirty = false
      void postLectureCall(`/lecture/${lectureId}/watch`, { position: Math.floor(position), watched: Math.floor(watched) })
    }
    const timer = window.setInterval(() => {
      if (!fromPlayer && visible && document.visibilityState === 'visible') {
        watched += HEARTBEAT_SECONDS
        position = watched
        dirty = true
      }
      send()
    }, HEARTBEAT_SECONDS * 1000)
    const onHide = () => send()
    window.addEventListener('pagehide', onHide)
    return () => {
      send()
      window.clearInterval(timer)
      window.removeEventListener('message', onMessage)
      window.removeEventListener('pagehide', onHide)
      observer.disconnect()
    }
  }, [lectureId, url, canSave, watchedSeconds])

  return (
    <div className="relative aspect-video w-full overflow-hidden rounded-xl bg-black" data-lecture-video>
      <iframe
        ref={frame}
        src={url}
        title={t('player.video.title', { title })}
        className="absolute inset-0 size-full border-0"
        loading="lazy"
        allow="accelerometer; gyroscope; encrypted-media; picture-in-picture; fullscreen"
        allowFullScreen
        data-video-player
      />
    </div>
  )
}
