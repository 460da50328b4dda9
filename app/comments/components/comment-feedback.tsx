// What the comments box shows when a call fails (seed 000 §8): 401 'Log in' / 'Log in to set
// progress'; 419 'Log in' / 'Session expired' and then /login; a comment's 422 the 1200 limit,
// its length and 'Try splitting your comment'; a reply's 422 the server's first body message;
// a review conversion's 422 the server's message as an error; anything else 'Something went
// wrong' (logged).
import { useCallback } from 'react'
import { firstError, type CallResult } from '#app/comments/client.ts'
import { COMMENT_MAX_LENGTH } from '#app/comments/contract.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { useToast } from '#app/components/toast.tsx'
import { goToLogin } from '#app/utils/go-to-login.ts'

export type FailureKind = 'comment' | 'reply' | 'review' | 'other'

export const EXPIRED_REDIRECT_MS = 1500

export function useCommentFailure() {
  const t = useT()
  const toast = useToast()
  return useCallback(
    (result: Extract<CallResult<unknown>, { ok: false }>, kind: FailureKind, length = 0) => {
      if (result.status === 401) {
        toast({ tone: 'info', title: t('comments.toast.login_title'), text: t('comments.toast.login_text') })
        return
      }
      if (result.status === 419) {
        toast({ tone: 'info', title: t('comments.toast.expired_title'), text: t('comments.toast.expired_text') })
        setTimeout(() => goToLogin(), EXPIRED_REDIRECT_MS)
        return
      }
      if (result.status === 422) {
        if (kind === 'comment' && length > COMMENT_MAX_LENGTH) {
          toast({ tone: 'warning', title: t('comments.toast.warning'), text: t('comments.toast.too_long', { max: COMMENT_MAX_LENGTH, length }) })
          return
        }
        const field = kind === 'review' ? 'review' : 'body'
        const message = firstError(result.data, field) ?? firstError(result.data, 'image')
        if (message) {
          toast({ tone: kind === 'review' ? 'error' : 'warning', title: kind === 'review' ? t('comments.toast.error') : t('comments.toast.warning'), text: message })
          return
        }
      }
      if (result.status === 403 && typeof result.data.message === 'string') {
        toast({ tone: 'error', title: t('comments.toast.error'), text: result.data.message })
        return
      }
      console.error('comments: call failed', result.status, result.data)
      toast({ tone: 'error', title: t('comments.toast.error'), text: t('comments.toast.error_text') })
    },
    [t, toast],
  )
}
