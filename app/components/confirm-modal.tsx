// Confirm modal (seed 000 §2 widget 9, §4 "Confirm modals"): open, then confirm runs the action,
// or cancel. A native modal <dialog>: focus moves in and stays there, Escape cancels, focus goes
// back to what opened it.
import { useEffect, useRef } from 'react'
import { Button } from './ui.tsx'

export function ConfirmModal({
  open,
  title,
  text,
  confirmLabel,
  cancelLabel,
  busy = false,
  tone = 'danger',
  onConfirm,
  onCancel,
}: {
  open: boolean
  title: string
  text?: string
  confirmLabel: string
  cancelLabel: string
  busy?: boolean
  tone?: 'danger' | 'primary'
  onConfirm: () => void
  onCancel: () => void
}) {
  const ref = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) dialog.showModal()
    if (!open && dialog.open) dialog.close()
  }, [open])
  return (
    <dialog
      ref={ref}
      aria-labelledby="confirm-modal-title"
      data-confirm-modal
      className="m-auto w-[min(24rem,calc(100vw-2rem))] rounded-xl border border-slate-200 p-0 shadow-xl backdrop:bg-slate-900/40"
      onCancel={(event) => {
        event.preventDefault()
        onCancel()
      }}
    >
      {open ? (
        <div className="p-5">
          <h2 id="confirm-modal-title" className="text-lg font-semibold text-slate-900">
            {title}
          </h2>
          {text ? <p className="mt-2 text-sm text-slate-600">{text}</p> : null}
          <div className="mt-5 flex justify-end gap-2">
            <Button type="button" variant="secondary" onClick={onCancel} autoFocus>
              {cancelLabel}
            </Button>
            <Button type="button" variant={tone} onClick={onConfirm} disabled={busy}>
              {confirmLabel}
            </Button>
          </div>
        </div>
      ) : null}
    </dialog>
  )
}
