// What follows a new post, whichever door it came through (the topic page's form or the seed's
// JSON call): the school's staff are notified of a student's post, the topic's subscribers get
// their e-mail (or a digest later), and the open feeds hear about it. None of it may undo the post.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { isStaffRole } from '#app/models/course-access.server.ts'
import type { TopicView } from '#app/models/community.server.ts'
import { notifyStaff } from '#app/models/notification.server.ts'
import { announceCommunityChange } from './events.server.ts'
import type { PostActor, PostSubmission } from './posts.server.ts'
import { emailTopicSubscribers } from './topic-mail.server.ts'

export async function afterPostPublished(
  context: AppLoadContext,
  tenantId: string,
  topic: TopicView,
  postId: string,
  author: PostActor,
  submission: Pick<PostSubmission, 'title' | 'body'>,
  now = Date.now(),
) {
  const byAdmin = isStaffRole(author.role)
  if (!byAdmin) {
    await notifyStaff(context, tenantId, { kind: 'post', subjectId: postId, actorName: author.name, excerpt: `${submission.title}: ${submission.body}`, link: `/community/posts/${postId}` })
  }
  try {
    await emailTopicSubscribers(
      { db: context.db, env: context.cloudflare.env },
      tenantId,
      topic,
      { id: postId, title: submission.title, body: submission.body, authorName: author.name, byAdmin, userId: author.id },
      now,
    )
  } catch (error) {
    console.error(JSON.stringify({ event: 'community_subscribers_mail_failed', tenantId, topicId: topic.id, error: String(error) }))
  }
  await announceCommunityChange(context, tenantId, { kind: 'post_created', topicId: topic.id, postId })
}
