// PLACEHOLDER (lead): the comments helper replaces this with the real loader.
import type { AppLoadContext } from '@remix-run/cloudflare'
import type { Commentable, CommentsBoxData, CommentViewer } from './contract.ts'

/** Everything <CommentsBox> needs for one commentable, read for this viewer (votes, rights). */
export async function loadCommentsBox(_context: AppLoadContext, _tenantId: string, commentable: Commentable, viewer: CommentViewer, opts: { loginPath: string }): Promise<CommentsBoxData> {
  return { commentable, viewer, loginPath: opts.loginPath, comments: [] }
}
