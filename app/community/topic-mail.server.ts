// E-mail to a topic's subscribers (issue 22 item 6): a new post sends one e-mail per subscriber
// (through the outbox and the mail queue, in the school's language, with an unsubscribe link that
// works without logging in); at most one e-mail per topic per student per hour — posts within the
// hour after an e-mail wait for a digest, which the app's cron sends when it is due.
import type { ShardDb } from '#app/db/client.server.ts'
import { allShards, controlDb } from '#app/db/shards.server.ts'
import { getTranslator, type Locale } from '#app/i18n/i18n.ts'
import {
  claimDigest,
  claimSubscriptionEmails,
  getTopic,
  listDueDigestsAcrossTenants,
  listPostsForDigest,
  listTopicSubscribers,
  readableTopic,
  type TopicSubscriber,
} from '#app/models/community.server.ts'
import { enqueueEmail, type OutgoingEmail } from '#app/models/email-outbox.server.ts'
import { schoolEmailOriginById } from '#app/models/school-address.server.ts'
import { getTenantById } from '#app/models/tenant.server.ts'
import { getUserById } from '#app/models/user.server.ts'
import type { Env } from '#app/utils/env.server.ts'
import { signUnsubscribeToken } from './unsubscribe-token.server.ts'

type MailEnv = Env
type School = { id: string; name: string; language: Locale; origin: string }
export type NewPostNotice = { id: string; title: string; body: string; authorName: string; byAdmin: boolean; userId: string | null }

const EXCERPT = 300

function escapeHtml(value: string) {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]!))
}

const excerptOf = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > EXCERPT ? `${flat.slice(0, EXCERPT - 1).trimEnd()}…` : flat
}

async function unsubscribeUrl(env: MailEnv, school: School, userId: string, topicId: string) {
  if (!env.INTEGRATIONS_KEY) throw new Error('INTEGRATIONS_KEY is not set: no unsubscribe link can be signed')
  const token = await signUnsubscribeToken(env.INTEGRATIONS_KEY, { tenantId: school.id, userId, topicId })
  return `${school.origin}/community/unsubscribe?token=${encodeURIComponent(token)}`
}

function layout(paragraphs: string[], footer: string) {
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a;max-width:560px;margin:0 auto;padding:24px">${paragraphs.join(
    '',
  )}<p style="margin-top:32px;font-size:12px;color:#64748b">${footer}</p></body></html>`
}

/** One new post, for one subscriber. */
export function newPostEmail(school: School, to: string, topicTitle: string, post: NewPostNotice, author: string, links: { post: string; unsubscribe: string }): OutgoingEmail {
  const t = getTranslator(school.language)
  const subject = t('community.mail.post.subject', { topic: topicTitle, school: school.name })
  const intro = t('community.mail.post.intro', { name: author, topic: topicTitle })
  const excerpt = excerptOf(post.body)
  const read = t('community.mail.read')
  const stop = t('community.mail.unsubscribe', { topic: topicTitle })
  const text = [intro, post.title, excerpt, `${read}: ${links.post}`, `${stop}: ${links.unsubscribe}`].join('\n\n')
  const html = layout(
    [
      `<p>${escapeHtml(intro)}</p>`,
      `<h2 style="font-size:18px">${escapeHtml(post.title)}</h2>`,
      `<blockquote style="border-left:3px solid #cbd5e1;margin:0;padding-left:12px;color:#334155">${escapeHtml(excerpt)}</blockquote>`,
      `<p><a href="${escapeHtml(links.post)}">${escapeHtml(read)}</a></p>`,
    ],
    `<a href="${escapeHtml(links.unsubscribe)}">${escapeHtml(stop)}</a>`,
  )
  return { template: 'community_post', to, subject, text, html }
}

/** The posts a subscriber missed within the hour after their last e-mail. */
export function digestEmail(school: School, to: string, topicTitle: string, posts: Array<{ title: string; authorName: string; url: string }>, unsubscribe: string): OutgoingEmail {
  const t = getTranslator(school.language)
  const subject = t('community.mail.digest.subject', { count: posts.length, topic: topicTitle, school: school.name })
  const intro = t('community.mail.digest.intro', { count: posts.length, topic: topicTitle })
  const stop = t('community.mail.unsubscribe', { topic: topicTitle })
  const lines = posts.map((p) => `${p.title} (${p.authorName}): ${p.url}`)
  const text = [intro, lines.join('\n'), `${stop}: ${unsubscribe}`].join('\n\n')
  const html = layout(
    [`<p>${escapeHtml(intro)}</p>`, `<ul>${posts.map((p) => `<li><a href="${escapeHtml(p.url)}">${escapeHtml(p.title)}</a> — ${escapeHtml(p.authorName)}</li>`).join('')}</ul>`],
    `<a href="${escapeHtml(unsubscribe)}">${escapeHtml(stop)}</a>`,
  )
  return { template: 'community_digest', to, subject, text, html }
}

async function schoolOf(env: MailEnv, tenantId: string): Promise<School | null> {
  const control = controlDb(env)
  const [tenant, origin] = await Promise.all([getTenantById(control, tenantId), schoolEmailOriginById(control, env, tenantId)])
  if (!tenant || !origin) return null
  return { id: tenant.id, name: tenant.name, language: tenant.language, origin }
}

/**
 * A new post: e-mail every subscriber who may read the topic (not its author) now, or — if they
 * got one within the hour — note a digest. Returns how many e-mails were queued.
 */
export async function emailTopicSubscribers(
  deps: { db: ShardDb; env: MailEnv },
  tenantId: string,
  topic: { id: string; title: string; access: 'public' | 'restricted' },
  post: NewPostNotice,
  now = Date.now(),
) {
  const subscribers = await listTopicSubscribers(deps.db, tenantId, topic, post.userId, now)
  if (subscribers.length === 0) return 0
  const school = await schoolOf(deps.env, tenantId)
  if (!school) return 0
  const claimed = await claimSubscriptionEmails(
    deps.db,
    tenantId,
    topic.id,
    subscribers.map((s) => s.userId),
    now,
  )
  const author = post.byAdmin ? school.name : post.authorName
  let sent = 0
  for (const s of subscribers.filter((x: TopicSubscriber) => claimed.has(x.userId))) {
    const links = { post: `${school.origin}/community/posts/${post.id}`, unsubscribe: await unsubscribeUrl(deps.env, school, s.userId, topic.id) }
    await enqueueEmail(deps.db, deps.env.MAIL_QUEUE, tenantId, newPostEmail(school, s.email, topic.title, post, author, links))
    sent++
  }
  return sent
}

/** Cron: send the digests that are due (each claimed first, so two runs never send one twice). */
export async function sendDueCommunityDigests(env: MailEnv, now = Date.now()) {
  let due = 0
  let sent = 0
  for (const { db } of allShards(env)) {
    const shard = await sendDueDigestsOfShard({ db, env }, now)
    due += shard.due
    sent += shard.sent
  }
  return { due, sent }
}

async function sendDueDigestsOfShard(deps: { db: ShardDb; env: MailEnv }, now: number) {
  const due = await listDueDigestsAcrossTenants(deps.db, now)
  let sent = 0
  for (const row of due) {
    try {
      const [user, topic, school] = await Promise.all([getUserById(deps.db, row.tenantId, row.userId), getTopic(deps.db, row.tenantId, row.topicId), schoolOf(deps.env, row.tenantId)])
      const since = row.lastSentAt ?? 0
      if (!(await claimDigest(deps.db, row.tenantId, row.userId, row.topicId, now))) continue
      // The student may have lost access meanwhile (a lapsed membership): no mail about a topic they cannot read.
      if (!user || !topic || !school || !(await readableTopic(deps.db, row.tenantId, topic.id, { id: user.id, role: user.role }, now))) continue
      const posts = await listPostsForDigest(deps.db, row.tenantId, topic.id, since, user.id)
      if (posts.length === 0) continue
      const items = posts.map((p) => ({ title: p.title, authorName: p.byAdmin ? school.name : p.authorName, url: `${school.origin}/community/posts/${p.id}` }))
      await enqueueEmail(deps.db, deps.env.MAIL_QUEUE, row.tenantId, digestEmail(school, user.email, topic.title, items, await unsubscribeUrl(deps.env, school, user.id, topic.id)))
      sent++
    } catch (error) {
      console.error(JSON.stringify({ event: 'community_digest_failed', tenantId: row.tenantId, topicId: row.topicId, error: String(error) }))
    }
  }
  return { due: due.length, sent }
}
