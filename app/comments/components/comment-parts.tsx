// Pieces of the comments box (seed 000 widget 8): author line (avatar, profile link for staff,
// shield on admin items, relative date with the exact time as its title), vote arrows, the
// per-item options menu, the text input with its Send button, the video of a video comment.
import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react'
import { sendState } from '#app/comments/client.ts'
import type { CommentVideoData, ItemAuthor, VoteValue } from '#app/comments/contract.ts'
import { COMMENT_MAX_LENGTH, COMMENT_MIN_LENGTH } from '#app/comments/contract.ts'
import { formatDateTime, fromNow } from '#app/utils/dates.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { UserAvatar } from '#app/components/user-avatar.tsx'
import { cx } from '#app/components/ui.tsx'

export const focusRing = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600'

export function ShieldIcon({ label }: { label: string }) {
  return (
    <svg viewBox="0 0 20 20" className="h-4 w-4 shrink-0 text-brand-600" fill="currentColor" role="img" aria-label={label} data-admin-shield>
      <title>{label}</title>
      <path d="M10 1.5 3 4.3v5.1c0 4.2 2.9 8 7 9.1 4.1-1.1 7-4.9 7-9.1V4.3L10 1.5Zm3.4 6.2-4.1 4.6a.8.8 0 0 1-1.2 0L6.6 10.6a.8.8 0 1 1 1.1-1.1l.9 1 3.6-3.9a.8.8 0 0 1 1.2 1.1Z" />
    </svg>
  )
}

export function ItemHeader({ author, byAdmin, createdAt, size = 40 }: { author: ItemAuthor; byAdmin: boolean; createdAt: number; size?: number }) {
  const t = useT()
  const locale = useLocale()
  return (
    <div className="flex min-w-0 items-center gap-3">
      <UserAvatar id={author.id ?? author.name} name={author.name} size={size} />
      <div className="min-w-0">
        <div className="flex min-w-0 items-center gap-1.5">
          {author.profilePath ? (
            <a href={author.profilePath} className={cx('truncate font-semibold text-slate-900 underline-offset-2 hover:underline', focusRing)} data-author-link>
              {author.name}
            </a>
          ) : (
            <span className="truncate font-semibold text-slate-900" data-author-name>
              {author.name}
            </span>
          )}
          {byAdmin ? <ShieldIcon label={t('comments.admin')} /> : null}
        </div>
        <time dateTime={new Date(createdAt).toISOString()} title={formatDateTime(createdAt)} className="text-xs text-slate-500" suppressHydrationWarning>
          {fromNow(createdAt, locale)}
        </time>
      </div>
    </div>
  )
}

function Arrow({ up }: { up: boolean }) {
  return (
    <svg viewBox="0 0 20 20" className="h-5 w-5" fill="currentColor" aria-hidden="true">
      {up ? <path d="M10 4 3.5 11h4v5h5v-5h4L10 4Z" /> : <path d="M10 16 16.5 9h-4V4h-5v5h-4L10 16Z" />}
    </svg>
  )
}

export function VoteArrows({ vote, count, busy, onVote }: { vote: VoteValue; count: number; busy: boolean; onVote: (value: 1 | -1) => void }) {
  const t = useT()
  const base = cx('rounded p-1 transition disabled:opacity-50', focusRing)
  return (
    <div className="flex items-center gap-1" data-votes>
      <button type="button" className={cx(base, vote === 1 ? 'text-brand-600' : 'text-slate-400 hover:text-slate-700')} aria-pressed={vote === 1} aria-label={t('comments.vote.up')} disabled={busy} onClick={() => onVote(1)} data-vote-up>
        <Arrow up />
      </button>
      <span className="min-w-[1.5ch] text-center text-sm font-semibold tabular-nums text-slate-700" aria-hidden="true" data-vote-count>
        {count}
      </span>
      <span className="sr-only" aria-live="polite">
        {t('comments.vote.count', { count })}
      </span>
      <button type="button" className={cx(base, vote === -1 ? 'text-red-600' : 'text-slate-400 hover:text-slate-700')} aria-pressed={vote === -1} aria-label={t('comments.vote.down')} disabled={busy} onClick={() => onVote(-1)} data-vote-down>
        <Arrow up={false} />
      </button>
    </div>
  )
}

export type MenuAction = { label: string; onSelect: () => void; tone?: 'danger'; testId?: string }

/** Per-item dropdown: a disclosure button and a list of actions; Escape or a click outside closes it. */
export function ItemMenu({ label, actions, extra }: { label: string; actions: MenuAction[]; extra?: (close: () => void) => ReactNode }) {
  const t = useT()
  const [open, setOpen] = useState(false)
  const ref = useRef<HTMLDivElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const id = useId()
  useEffect(() => {
    if (!open) return
    const onDown = (event: MouseEvent) => {
      if (ref.current && !ref.current.contains(event.target as Node)) setOpen(false)
    }
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false)
        buttonRef.current?.focus()
      }
    }
    document.addEventListener('mousedown', onDown)
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('mousedown', onDown)
      document.removeEventListener('keydown', onKey)
    }
  }, [open])
  if (actions.length === 0 && !extra) return null
  const close = () => setOpen(false)
  return (
    <div ref={ref} className="relative">
      <button
        ref={buttonRef}
        type="button"
        className={cx('rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800', focusRing)}
        aria-expanded={open}
        aria-controls={id}
        aria-label={label}
        title={t('comments.menu')}
        onClick={() => setOpen((v) => !v)}
        data-item-menu
      >
        <svg viewBox="0 0 20 20" className="h-5 w-5" fill="currentColor" aria-hidden="true">
          <circle cx="4" cy="10" r="1.7" />
          <circle cx="10" cy="10" r="1.7" />
          <circle cx="16" cy="10" r="1.7" />
        </svg>
      </button>
      {open ? (
        <div id={id} className="absolute right-0 z-20 mt-1 w-56 rounded-lg border border-slate-200 bg-white py-1 shadow-lg">
          <ul>
            {actions.map((action) => (
              <li key={action.label}>
                <button
                  type="button"
                  className={cx('block w-full px-3 py-2 text-left text-sm hover:bg-slate-50', action.tone === 'danger' ? 'text-red-700' : 'text-slate-800', focusRing)}
                  onClick={() => {
                    close()
                    action.onSelect()
                  }}
                  data-menu-action={action.testId}
                >
                  {action.label}
                </button>
              </li>
            ))}
          </ul>
          {extra ? extra(close) : null}
        </div>
      ) : null}
    </div>
  )
}

/**
 * The comment or reply input: Send shown once there is text, enabled from 2 characters (seed 000
 * §5). Before hydration Send is always there, so the plain form works without JavaScript.
 */
export function TextInput({
  name,
  label,
  placeholder,
  value,
  onChange,
  busy,
  sendLabel,
  autoFocus,
  inputRef,
  children,
}: {
  name: string
  label: string
  placeholder: string
  value: string
  onChange: (value: string) => void
  busy: boolean
  sendLabel: string
  autoFocus?: boolean
  inputRef?: RefObject<HTMLTextAreaElement>
  children?: ReactNode
}) {
  const t = useT()
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  const state = hydrated ? sendState(value, COMMENT_MIN_LENGTH) : 'enabled'
  const id = useId()
  const over = value.trim().length > COMMENT_MAX_LENGTH
  return (
    <div className="space-y-2">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <textarea
        ref={inputRef}
        id={id}
        name={name}
        rows={3}
        value={value}
        placeholder={placeholder}
        autoFocus={autoFocus}
        onChange={(event) => onChange(event.target.value)}
        className={cx('block w-full resize-y rounded-md border px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30', over ? 'border-amber-400' : 'border-slate-300')}
        data-comment-input={name}
      />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex items-center gap-2">{children}</div>
        <div className="flex items-center gap-3">
          {hydrated && value.length > 0 ? (
            <span className={cx('text-xs tabular-nums', over ? 'font-semibold text-amber-700' : 'text-slate-500')} aria-live="polite">
              {t('comments.input.counter', { length: value.trim().length, max: COMMENT_MAX_LENGTH })}
            </span>
          ) : null}
          {state !== 'hidden' ? (
            <button
              type="submit"
              disabled={state === 'disabled' || busy}
              className={cx('inline-flex items-center rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-50', focusRing)}
              data-send
            >
              {busy ? t('comments.input.sending') : sendLabel}
            </button>
          ) : null}
        </div>
      </div>
    </div>
  )
}

/** A video comment (seed 000 §4 "Comment video"): transcoding notice, 16:9 player (no autoplay or preload), or failure. */
export function CommentVideo({ video }: { video: CommentVideoData }) {
  const t = useT()
  if (video.view === 'player' && video.embedUrl) {
    return (
      <div className="relative mt-3 w-full overflow-hidden rounded-lg bg-black" style={{ aspectRatio: '16 / 9' }}>
        <iframe src={video.embedUrl} title={t('comments.video.title')} className="absolute inset-0 h-full w-full" loading="lazy" allow="encrypted-media; picture-in-picture" allowFullScreen />
      </div>
    )
  }
  if (video.view === 'failed') return <p className="mt-3 text-sm text-red-700">{t('comments.video.failed')}</p>
  return (
    <div className="mt-3 flex items-center gap-3 rounded-lg bg-slate-50 p-3 text-sm text-slate-600" role="status" data-video-transcoding>
      <span className="h-5 w-5 shrink-0 animate-spin rounded-full border-2 border-slate-300 border-t-brand-600" aria-hidden="true" />
      <span>{t('comments.video.transcoding')}</span>
    </div>
  )
}
