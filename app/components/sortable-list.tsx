// A reorderable list. Without JavaScript every item still has "Move up" / "Move down" forms (the
// caller renders them); with it, items can be dragged with the mouse (HTML5 drag and drop) or with
// the keyboard through a focusable handle: Space picks up, arrows move, Space drops, Escape cancels,
// each step announced in an aria-live region. A drop calls `onReorder` with the full new order.
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { useT } from '#app/utils/i18n-react.ts'
import { cx } from './ui.tsx'

export type SortableItem = { id: string; label: string }

type Props = {
  items: SortableItem[]
  onReorder: (ids: string[]) => void
  /** Name of the list for screen readers, e.g. "Sections". */
  label: string
  /** data-sortable attribute (tests, several lists on a page). */
  name: string
  className?: string
  children: (item: SortableItem, handle: ReactNode) => ReactNode
}

export function SortableList({ items, onReorder, label, name, className, children }: Props) {
  const t = useT()
  const [hydrated, setHydrated] = useState(false)
  const [order, setOrder] = useState(() => items.map((i) => i.id))
  const [grabbed, setGrabbed] = useState<string | null>(null)
  const [dragging, setDragging] = useState<string | null>(null)
  const [announcement, setAnnouncement] = useState('')
  const before = useRef<string[]>([])
  const handles = useRef(new Map<string, HTMLButtonElement>())
  const itemsKey = items.map((i) => i.id).join(',')

  useEffect(() => setHydrated(true), [])
  // New data from the server (after a save or another change) replaces the local order.
  useEffect(() => setOrder(itemsKey ? itemsKey.split(',') : []), [itemsKey])

  const byId = new Map(items.map((i) => [i.id, i]))
  const labelOf = (id: string) => byId.get(id)?.label ?? ''
  const changed = (next: string[]) => next.join(',') !== itemsKey

  function moveTo(id: string, index: number, list = order) {
    const next = list.filter((x) => x !== id)
    next.splice(Math.max(0, Math.min(index, next.length)), 0, id)
    return next
  }

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>, id: string) {
    const position = order.indexOf(id)
    if (event.key === ' ' || event.key === 'Enter') {
      event.preventDefault()
      if (grabbed !== id) {
        before.current = order
        setGrabbed(id)
        setAnnouncement(t('courses.sort.picked', { name: labelOf(id), position: position + 1, total: order.length }))
      } else {
        setGrabbed(null)
        setAnnouncement(t('courses.sort.dropped', { name: labelOf(id), position: position + 1, total: order.length }))
        if (changed(order)) onReorder(order)
      }
      return
    }
    if (grabbed !== id) return
    if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
      event.preventDefault()
      const target = position + (event.key === 'ArrowUp' ? -1 : 1)
      if (target < 0 || target >= order.length) return
      setOrder(moveTo(id, target))
      setAnnouncement(t('courses.sort.moved', { name: labelOf(id), position: target + 1, total: order.length }))
      // The handle stays focused after React moves the element.
      requestAnimationFrame(() => handles.current.get(id)?.focus())
    } else if (event.key === 'Escape') {
      event.preventDefault()
      setOrder(before.current)
      setGrabbed(null)
      setAnnouncement(t('courses.sort.cancelled', { name: labelOf(id) }))
    }
  }

  return (
    <div>
      <ul aria-label={label} className={className} data-sortable={name}>
        {order.map((id) => {
          const item = byId.get(id)
          if (!item) return null
          const handle = hydrated ? (
            <button
              type="button"
              ref={(el) => {
                if (el) handles.current.set(id, el)
                else handles.current.delete(id)
              }}
              aria-pressed={grabbed === id}
              aria-label={t('courses.sort.handle', { name: item.label })}
              aria-describedby={`${name}-sort-help`}
              onKeyDown={(e) => onKeyDown(e, id)}
              onBlur={() => {
                if (grabbed === id) {
                  setOrder(before.current)
                  setGrabbed(null)
                }
              }}
              className={cx('cursor-grab rounded px-1.5 py-1 text-slate-500 hover:bg-slate-100 focus:outline-none focus:ring-2 focus:ring-brand-300', grabbed === id && 'bg-brand-100 text-brand-800')}
              data-sort-handle={item.label}
            >
              <span aria-hidden="true">⠿</span>
            </button>
          ) : null
          return (
            <li
              key={id}
              draggable={hydrated}
              data-sort-item={item.label}
              onDragStart={(e) => {
                e.stopPropagation()
                e.dataTransfer.effectAllowed = 'move'
                e.dataTransfer.setData('text/plain', id)
                before.current = order
                setDragging(id)
              }}
              onDragOver={(e) => {
                if (!dragging || dragging === id) return
                e.preventDefault()
                e.stopPropagation()
                setOrder((current) => moveTo(dragging, current.indexOf(id), current))
              }}
              onDrop={(e) => {
                if (!dragging) return
                e.preventDefault()
                e.stopPropagation()
              }}
              onDragEnd={(e) => {
                e.stopPropagation()
                const id2 = dragging
                setDragging(null)
                if (!id2) return
                setAnnouncement(t('courses.sort.dropped', { name: labelOf(id2), position: order.indexOf(id2) + 1, total: order.length }))
                if (changed(order)) onReorder(order)
              }}
              className={cx(dragging === id && 'opacity-50', grabbed === id && 'ring-2 ring-brand-300')}
            >
              {children(item, handle)}
            </li>
          )
        })}
      </ul>
      {hydrated ? (
        <p id={`${name}-sort-help`} className="sr-only">
          {t('courses.sort.help')}
        </p>
      ) : null}
      <p aria-live="assertive" className="sr-only" data-sort-announcement={name}>
        {announcement}
      </p>
    </div>
  )
}
