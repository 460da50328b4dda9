// PLACEHOLDER (lead): the comments helper replaces this with the real comments box (seed 000 widget 8).
import type { CommentsBoxData } from '#app/comments/contract.ts'

export function CommentsBox({ data }: { data: CommentsBoxData }) {
  return <section data-comments-box={data.commentable.id} />
}
