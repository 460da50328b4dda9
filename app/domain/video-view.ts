// How a video's state reads on a page (pure; used by loaders and components).
import { isPlayable, type VideoState } from './video-state.ts'

export { isPlayable }

/** Settled: nothing more will happen without the creator (ready, failed, or an upload never finished). */
export function isSettled(state: VideoState) {
  return state === 'ready' || state === 'failed' || state === 'awaiting_upload'
}

export function videoStateTone(state: VideoState): 'neutral' | 'progress' | 'good' | 'bad' {
  if (state === 'failed') return 'bad'
  if (isPlayable(state)) return 'good'
  if (state === 'awaiting_upload') return 'neutral'
  return 'progress'
}

/** 75 → "1:15", 3725 → "1:02:05"; unknown → "–". */
export function formatLength(seconds: number | null) {
  if (!seconds) return '–'
  const h = Math.floor(seconds / 3600)
  const m = Math.floor((seconds % 3600) / 60)
  const s = seconds % 60
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}` : `${m}:${String(s).padStart(2, '0')}`
}
