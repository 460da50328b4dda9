// User avatar (seed 000 §2 widget 10): the image, or a coloured circle with the first letter of
// the name; the colour comes from id + name, so the same person always gets the same colour.
import { cx } from './ui.tsx'

/** Background colours with white text at AA contrast. */
export const AVATAR_COLORS = ['#b91c1c', '#c2410c', '#a16207', '#15803d', '#0f766e', '#0369a1', '#4338ca', '#7e22ce', '#be185d', '#475569'] as const

/** Deterministic colour of an avatar: a 32-bit FNV-1a hash of `${id}${name}` picks a palette entry. */
export function avatarColor(id: string | number, name: string): string {
  const input = `${id}${name}`
  let hash = 0x811c9dc5
  for (let i = 0; i < input.length; i++) {
    hash ^= input.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return AVATAR_COLORS[hash % AVATAR_COLORS.length]
}

/** First letter of the name (a whole code point, upper-cased); '?' when there is none. */
export function avatarInitial(name: string): string {
  const first = Array.from(name.trim())[0]
  return first ? first.toLocaleUpperCase() : '?'
}

export function UserAvatar({ id, name, src, size = 40, className }: { id: string | number; name: string; src?: string | null; size?: number; className?: string }) {
  const style = { width: size, height: size }
  if (src) return <img src={src} alt="" width={size} height={size} style={style} className={cx('shrink-0 rounded-full object-cover', className)} loading="lazy" data-user-avatar="image" />
  return (
    <span
      aria-hidden="true"
      data-user-avatar="initial"
      className={cx('inline-flex shrink-0 select-none items-center justify-center rounded-full font-semibold text-white', className)}
      style={{ ...style, backgroundColor: avatarColor(id, name), fontSize: Math.round(size * 0.45) }}
    >
      {avatarInitial(name)}
    </span>
  )
}
