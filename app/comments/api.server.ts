// Shared by the comment routes (seed 000 §7): who is calling (401 visitor, 419 expired session),
// how bodies are read, and how rows become what the browser gets (rights decided here, per viewer).
import { redirect, type AppLoadContext } from '@remix-run/cloudflare'
import type { CommentRecord, CommentRow, CommentTarget, ReplyRow } from '#app/models/comment.server.ts'
import { canDelete, commentRights, getComment, resolveCommentable, type CommentActor } from '#app/models/comment.server.ts'
import { isStaffRole } from '#app/models/course-access.server.ts'
import { getCurrentUserOrVerify } from '#app/auth/auth.server.ts'
import { readSessionToken } from '#app/utils/session-cookie.server.ts'
import { getT, requireSchool } from '#app/utils/request.server.ts'
import { noStoreJson } from '#app/utils/responses.server.ts'
import { isDataRequest } from '#app/utils/security.server.ts'
import type { CommentItem, ItemAuthor, ReplyItem } from './contract.ts'

export const json = noStoreJson

/** Thrown answers end the action; 404 in the seed's JSON shape for script calls. */
export function notFoundAnswer(): never {
  throw json({ message: 'Not Found' }, 404)
}

/**
 * The signed-in user, or: a visitor gets 401 (toast 'Log in'), a browser whose session cookie no
 * longer holds gets 419 with /login (seed 000 §7/§8); a no-JS form post is sent to /login.
 */
export async function requireCommenter(request: Request, context: AppLoadContext, back = '/'): Promise<CommentActor & { tenantId: string }> {
  const tenant = requireSchool(context)
  const user = await getCurrentUserOrVerify(request, context)
  if (user) return { id: user.id, name: user.name, role: user.role, tenantId: tenant.id }
  const t = getT(request, context)
  if (!isDataRequest(request)) throw redirect(`/login?redirectTo=${encodeURIComponent(back)}`, 303)
  if (readSessionToken(request)) throw json({ message: t('error.session_expired'), redirectTo: '/login' }, 419)
  throw json({ message: t('comments.toast.login_title') }, 401)
}

/** JSON, urlencoded or multipart body: string fields, and files kept apart. */
/** DELETE, or a POST whose body says `_method=DELETE` (the no-JS form); other methods as sent. */
export async function requestMethod(request: Request) {
  if (request.method !== 'POST') return request.method
  const read = await readFields(request)
  return read?.fields._method?.toUpperCase() === 'DELETE' ? 'DELETE' : 'POST'
}

export async function readFields(request: Request): Promise<{ fields: Record<string, string>; files: Record<string, File> } | null> {
  const type = request.headers.get('Content-Type') ?? ''
  try {
    if (type.includes('application/json')) {
      const value: unknown = await request.json()
      if (!value || typeof value !== 'object' || Array.isArray(value)) return null
      const fields: Record<string, string> = {}
      for (const [k, v] of Object.entries(value)) if (typeof v === 'string' || typeof v === 'number') fields[k] = String(v)
      return { fields, files: {} }
    }
    const form = await request.formData()
    const fields: Record<string, string> = {}
    const files: Record<string, File> = {}
    for (const [name, value] of form) {
      if (typeof value === 'string') {
        if (!(name in fields)) fields[name] = value
      } else if (value.size > 0 && !(name in files)) files[name] = value
    }
    return { fields, files }
  } catch {
    return null
  }
}

/** A comment of this school and the thing it is attached to, or 404. */
export async function requireComment(context: AppLoadContext, tenantId: string, commentId: string): Promise<{ comment: CommentRecord; target: CommentTarget }> {
  const comment = await getComment(context.db, tenantId, commentId)
  if (!comment) notFoundAnswer()
  const target = await resolveCommentable(context.db, tenantId, comment.commentableType, comment.commentableId)
  if (!target) notFoundAnswer()
  return { comment, target }
}

/** The caller may read (and so vote/reply on) this target; a student without access gets 404. */
export async function requireReader(context: AppLoadContext, tenantId: string, target: CommentTarget, actor: CommentActor) {
  const rights = await commentRights(context.db, tenantId, target, actor)
  if (!rights.read) notFoundAnswer()
  return rights
}

export function authorOf(item: { userId: string | null; authorName: string; byAdmin: boolean }, viewer: CommentActor | null): ItemAuthor {
  const staffViewer = viewer !== null && isStaffRole(viewer.role)
  return { id: item.userId, name: item.authorName, profilePath: staffViewer && !item.byAdmin && item.userId ? `/home/students/${item.userId}` : null }
}

export function toCommentItem(row: CommentRow, viewer: CommentActor | null, converted: ReadonlySet<string>): CommentItem {
  const staffViewer = viewer !== null && isStaffRole(viewer.role)
  return {
    id: row.id,
    body: row.body,
    createdAt: row.createdAt,
    author: authorOf(row, viewer),
    byAdmin: row.byAdmin,
    repliesCount: row.repliesCount,
    upVotesCount: row.upVotesCount,
    vote: row.vote,
    canDelete: canDelete(viewer, row),
    canConvert: staffViewer && !row.byAdmin && row.userId !== null && !converted.has(row.id),
    video: row.video ? { view: row.video.view, embedUrl: null } : null,
  }
}

export function toReplyItem(row: ReplyRow, viewer: CommentActor | null, mediaOrigin: string): ReplyItem {
  return {
    id: row.id,
    commentId: row.commentId,
    body: row.body,
    imageUrl: row.imagePath ? `${mediaOrigin}/${row.imagePath}` : null,
    createdAt: row.createdAt,
    author: authorOf(row, viewer),
    byAdmin: row.byAdmin,
    upVotesCount: row.upVotesCount,
    vote: row.vote,
    canDelete: canDelete(viewer, row),
  }
}

/** The 422 answer of a body outside 2..1200 (seed 000 §8: errors.body[0]). */
export function bodyErrorAnswer(t: (key: string, values?: Record<string, string | number>) => string, problem: 'min' | 'max', length: number) {
  const message = problem === 'min' ? t('comments.error.min', { count: 2 }) : t('comments.error.max', { count: 1200, length })
  return json({ message, errors: { body: [message] }, length }, 422)
}
