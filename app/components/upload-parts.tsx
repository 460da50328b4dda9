// Pieces every uploader shares (images, private files, videos): a real, labelled file input
// dressed as a button, a drop zone, and the progress bar.
import { useState, type DragEvent, type RefObject } from 'react'
import { cx } from './ui.tsx'

type PickProps = {
  id: string
  inputRef?: RefObject<HTMLInputElement>
  accept: string
  multiple?: boolean
  disabled: boolean
  describedBy: string
  invalid?: boolean
  label: string
  onFiles: (files: FileList) => void
}

/** A real file input, visually merged into the button but focusable and labelled. */
export function FilePickButton({ id, inputRef, accept, multiple, disabled, describedBy, invalid, label, onFiles }: PickProps) {
  return (
    <span className="relative inline-flex">
      <input
        ref={inputRef}
        id={id}
        type="file"
        multiple={multiple}
        accept={accept}
        disabled={disabled}
        aria-describedby={describedBy}
        aria-invalid={invalid ? true : undefined}
        className="peer absolute inset-0 cursor-pointer opacity-0 disabled:cursor-not-allowed"
        onChange={(e) => {
          const files = e.currentTarget.files
          if (files && files.length > 0) onFiles(files)
        }}
      />
      <span
        aria-hidden="true"
        className="inline-flex items-center rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-semibold text-slate-800 shadow-sm peer-hover:bg-slate-50 peer-focus-visible:ring-2 peer-focus-visible:ring-brand-600 peer-disabled:bg-slate-100 peer-disabled:text-slate-600"
      >
        {label}
      </span>
    </span>
  )
}

/** Drag-and-drop handlers for a drop zone; `dragging` for its highlight. */
export function useDropZone(enabled: boolean, onFiles: (files: FileList) => void) {
  const [dragging, setDragging] = useState(false)
  return {
    dragging,
    handlers: {
      onDragOver: (e: DragEvent) => {
        e.preventDefault()
        if (enabled) setDragging(true)
      },
      onDragLeave: () => setDragging(false),
      onDrop: (e: DragEvent) => {
        e.preventDefault()
        setDragging(false)
        if (enabled && e.dataTransfer.files.length > 0) onFiles(e.dataTransfer.files)
      },
    },
  }
}

export function ProgressBar({ percent, label, tone = 'normal', className, data }: { percent: number; label: string; tone?: 'normal' | 'warning'; className?: string; data?: Record<string, string | number> }) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      className={cx('h-2 w-full overflow-hidden rounded-full bg-slate-200', className)}
      {...data}
    >
      <div className={cx('h-full transition-[width]', tone === 'warning' ? 'bg-amber-500' : 'bg-brand-600')} style={{ width: `${percent}%` }} />
    </div>
  )
}
