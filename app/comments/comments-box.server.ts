// The comments box of one commentable, read for this viewer: the list (newest first) with the
// viewer's votes and rights per item. Visitors and viewers without access get no comments at all.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { commentRights, convertedCommentIds, listComments, resolveCommentable } from '#app/models/comment.server.ts'
import { toCommentItem } from './api.server.ts'
import type { Commentable, CommentsBoxData, CommentViewer } from './contract.ts'

/** Everything <CommentsBox> needs for one commentable, read for this viewer (votes, rights). */
export async function loadCommentsBox(context: AppLoadContext, tenantId: string, commentable: Commentable, viewer: CommentViewer, opts: { loginPath: string }): Promise<CommentsBoxData> {
  const empty: CommentsBoxData = { commentable, viewer, loginPath: opts.loginPath, comments: [], total: 0, canRead: false, canComment: false, staff: false, videoComments: commentable.type === 'community_post' }
  if (!viewer) return empty
  const target = await resolveCommentable(context.db, tenantId, commentable.type, commentable.id)
  if (!target) return empty
  const rights = await commentRights(context.db, tenantId, target, viewer)
  if (!rights.read) return { ...empty, staff: rights.staff }
  const { comments, total } = await listComments(context.db, tenantId, commentable.type, commentable.id, viewer.id)
  const converted = rights.staff ? await convertedCommentIds(context.db, tenantId, comments.map((c) => c.id)) : new Set<string>()
  // A community post's comments never become course reviews (issue 22: conversion does not apply).
  // A community comment's ready video plays through its own route (a signed URL per view).
  const items = comments
    .map((c) => toCommentItem(c, viewer, converted))
    .map((item) => (commentable.type === 'lecture' ? item : { ...item, canConvert: false, video: item.video ? { ...item.video, embedUrl: item.video.view === 'player' ? `/community/comment-videos/${item.id}/play` : null } : null }))
  return { ...empty, comments: items, total, canRead: true, canComment: rights.write, staff: rights.staff }
}
