// The live topic feed in the browser (issue 22 item 7, ADR 029). After hydration it opens
// /community/topics/{id}/live (ws: or wss: like the page) and, on a hint from the school's
// CommunityFeed Durable Object, re-reads the page's loaders (debounced 200 ms), so new posts and
// comment counts appear without a reload; the loader decides what the viewer sees. While the
// viewer is writing a new post, hints are held (a re-read would reset the editor) and a button
// offers the new posts; they are shown as soon as the draft is empty again or sent.
// When the socket drops: reconnect after 1, 2, 4 … 30 s (with jitter), and meanwhile re-read every
// 30 s; once it is back, one re-read catches up on what was missed. Without JavaScript none of
// this runs and the paged feed works as it is.
import { useLocation, useRevalidator } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { useT } from '#app/utils/i18n-react.ts'

/** The re-read after a burst of hints waits this long for the rest of the burst. */
export const LIVE_DEBOUNCE_MS = 200
/** While disconnected, the feed is re-read this often. */
export const LIVE_FALLBACK_POLL_MS = 30_000
/** Keep-alive: proxies close a WebSocket idle for about 100 s; the Durable Object answers without waking. */
const KEEPALIVE_MS = 30_000
const RETRY_MAX_MS = 30_000

type Hint = { kind: string; topicId: string; postId: string }
type Status = 'connecting' | 'live' | 'paused'

function parseHint(data: unknown): Hint | null {
  if (typeof data !== 'string' || data === 'pong') return null
  try {
    const hint = JSON.parse(data) as Partial<Hint>
    return typeof hint.kind === 'string' && typeof hint.topicId === 'string' ? (hint as Hint) : null
  } catch {
    return null
  }
}

/** The viewer has started a new post on this page (title or body typed). */
function isComposing() {
  const form = document.querySelector<HTMLFormElement>('form[data-post-editor="create"]')
  if (!form) return false
  return ['title', 'body'].some((name) => {
    const field = form.elements.namedItem(name)
    return field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement ? field.value.trim() !== '' : false
  })
}

export function LiveFeed({ topicId }: { topicId: string }) {
  const t = useT()
  const revalidator = useRevalidator()
  const location = useLocation()
  const [status, setStatus] = useState<Status | null>(null)
  const [arrived, setArrived] = useState(false)
  const [held, setHeld] = useState<{ posts: Set<string>; other: boolean }>({ posts: new Set(), other: false })
  const revalidate = useRef(revalidator.revalidate)
  revalidate.current = revalidator.revalidate
  const heldRef = useRef(held)
  heldRef.current = held

  // A navigation (the viewer's own post sent, another page of the feed) has re-read everything.
  useEffect(() => {
    setHeld({ posts: new Set(), other: false })
  }, [location.key])

  useEffect(() => {
    let socket: WebSocket | null = null
    let stopped = false
    let attempt = 0
    let everOpen = false
    let debounce: ReturnType<typeof setTimeout> | undefined
    let retry: ReturnType<typeof setTimeout> | undefined
    let poll: ReturnType<typeof setInterval> | undefined
    let keepAlive: ReturnType<typeof setInterval> | undefined

    const reread = (newPosts: boolean) => {
      clearTimeout(debounce)
      debounce = setTimeout(() => {
        revalidate.current()
        if (newPosts) setArrived(true)
      }, LIVE_DEBOUNCE_MS)
    }
    const onHint = (hint: Hint) => {
      if (hint.topicId !== topicId) return
      if (isComposing()) {
        setHeld((h) => (hint.kind === 'post_created' ? { posts: new Set(h.posts).add(hint.postId), other: h.other } : { posts: h.posts, other: true }))
        return
      }
      reread(hint.kind === 'post_created')
    }
    const startPolling = () => {
      poll ??= setInterval(() => {
        if (document.visibilityState === 'visible' && !isComposing()) revalidate.current()
      }, LIVE_FALLBACK_POLL_MS)
    }
    const stopPolling = () => {
      clearInterval(poll)
      poll = undefined
    }
    const connect = () => {
      if (stopped) return
      const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:'
      const ws = new WebSocket(`${scheme}//${window.location.host}/community/topics/${encodeURIComponent(topicId)}/live`)
      socket = ws
      ws.onopen = () => {
        attempt = 0
        setStatus('live')
        stopPolling()
        // Back after a drop: whatever was announced meanwhile is read now.
        if (everOpen && !isComposing()) reread(false)
        everOpen = true
        clearInterval(keepAlive)
        keepAlive = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send('ping'), KEEPALIVE_MS)
      }
      ws.onmessage = (event) => {
        const hint = parseHint(event.data)
        if (hint) onHint(hint)
      }
      ws.onclose = () => {
        clearInterval(keepAlive)
        if (stopped || socket !== ws) return
        setStatus('paused')
        startPolling()
        const delay = Math.min(RETRY_MAX_MS, 1000 * 2 ** attempt++) * (0.75 + Math.random() * 0.5)
        retry = setTimeout(connect, delay)
      }
    }
    setStatus('connecting')
    connect()

    // Hints held while a draft was typed are applied once the draft is empty again.
    const onInput = () => {
      const h = heldRef.current
      if ((h.posts.size || h.other) && !isComposing()) {
        setHeld({ posts: new Set(), other: false })
        reread(h.posts.size > 0)
      }
    }
    document.addEventListener('input', onInput)
    return () => {
      stopped = true
      document.removeEventListener('input', onInput)
      clearTimeout(debounce)
      clearTimeout(retry)
      clearInterval(keepAlive)
      stopPolling()
      socket?.close(1000)
    }
  }, [topicId])

  if (status === null) return null
  const heldPosts = held.posts.size
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm text-slate-600" data-live-feed={status}>
      <p role="status" aria-live="polite" className="flex items-center gap-2">
        <span aria-hidden="true" className={`inline-block h-2 w-2 rounded-full ${status === 'live' ? 'bg-emerald-500' : status === 'paused' ? 'bg-amber-500' : 'bg-slate-300'}`} />
        <span data-live-status>{status === 'paused' ? t('community.live.paused') : arrived ? t('community.live.arrived') : t('community.feed.live')}</span>
      </p>
      {heldPosts > 0 ? (
        <button
          type="button"
          className="rounded-md border border-slate-300 bg-white px-3 py-1 font-medium text-slate-800 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-slate-500"
          data-live-show
          onClick={() => {
            setHeld({ posts: new Set(), other: false })
            setArrived(true)
            revalidator.revalidate()
          }}
        >
          {t('community.feed.new_posts', { count: heldPosts })}
        </button>
      ) : null}
    </div>
  )
}
