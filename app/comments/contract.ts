// The comments box contract (issue 7): what a page's loader hands to <CommentsBox>. Lecture pages
// use it now; community posts (a later issue) reuse it with type 'community_post' (video comments).
import type { CommentableType, UserRole } from '#app/db/schema.server.ts'

export type Commentable = { type: CommentableType; id: string }

/** The signed-in viewer as the comments box needs it; null for visitors. */
export type CommentViewer = { id: string; name: string; role: UserRole } | null

export type CommentsBoxData = {
  commentable: Commentable
  viewer: CommentViewer
  /** Where the visitor's 'Log in now' link goes (seed 000 §2: /{course}/watch/login). */
  loginPath: string
  comments: unknown[]
}
