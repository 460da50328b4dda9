// The comments box contract (issue 7): what a page's loader hands to <CommentsBox>. Lecture pages
// use it now; community posts (a later issue) reuse it with type 'community_post' (video comments).
// Shared by the server (loadCommentsBox, the JSON routes) and the browser: no server imports here.
import type { CommentableType, UserRole } from '#app/db/schema.server.ts'

export type Commentable = { type: CommentableType; id: string }

/** The signed-in viewer as the comments box needs it; null for visitors. */
export type CommentViewer = { id: string; name: string; role: UserRole } | null

export type VoteValue = -1 | 0 | 1

export type ItemAuthor = {
  /** Null when the account is gone. */
  id: string | null
  name: string
  /** Link to the student's profile: only for staff viewers and only on non-admin items. */
  profilePath: string | null
}

/** Seed 000 §4 "Comment video": the transcoding notice, a 16:9 player, or a failure note. */
export type CommentVideoData = { view: 'transcoding' | 'player' | 'failed'; embedUrl: string | null }

export type CommentItem = {
  id: string
  body: string
  createdAt: number
  author: ItemAuthor
  byAdmin: boolean
  repliesCount: number
  upVotesCount: number
  vote: VoteValue
  canDelete: boolean
  /** Owner/admin may turn it into a review (not yet converted, author still has an account). */
  canConvert: boolean
  video: CommentVideoData | null
}

export type ReplyItem = {
  id: string
  commentId: string
  body: string
  /** Full URL on the media host. */
  imageUrl: string | null
  createdAt: number
  author: ItemAuthor
  byAdmin: boolean
  upVotesCount: number
  vote: VoteValue
  canDelete: boolean
}

/** Bunny tus grant for a video comment (seed 000 §3 "Video upload grant"; community posts only). */
export type VideoUploadGrantData = { endpoint: string; AuthorizationSignature: string; AuthorizationExpire: number; VideoId: string; LibraryId: string; title: string }

export type CommentsBoxData = {
  commentable: Commentable
  viewer: CommentViewer
  /** Where the visitor's 'Log in now' link goes (seed 000 §2: /{course}/watch/login). */
  loginPath: string
  comments: CommentItem[]
  total: number
  /** The viewer may read the list (staff, or a student with access to the course). */
  canRead: boolean
  /** The viewer may post (comments enabled on the course and the lecture). */
  canComment: boolean
  /** Owner or admin: reply images, convert to review, delete any. */
  staff: boolean
  /** Video comments are offered (community posts only, seed 000 §5). */
  videoComments: boolean
}

// ---- answers of the JSON calls (seed 000 §7) ----------------------------------------------------

export type CreateCommentAnswer = { comment: CommentItem; videoUpload?: VideoUploadGrantData }
export type RepliesAnswer = { replies: ReplyItem[] }
export type CreateReplyAnswer = { reply: ReplyItem; repliesCount: number }
export type VoteAnswer = { value: VoteValue; up_votes_count: number }
export type ErrorAnswer = { message?: string; errors?: Record<string, string[]>; redirectTo?: string }

export const COMMENT_MIN_LENGTH = 2
export const COMMENT_MAX_LENGTH = 1200
export const REPLY_IMAGE_ACCEPT = 'image/png,image/gif,image/jpeg,.png,.gif,.jpg,.jpeg'
