// Registry of every ID-bearing route (isolation harness b). Each entry says how to address the
// victim school's object; the matrix test replays it from another school and expects 404.
// A route file with a URL parameter that is missing here fails the matrix test.

import * as articles from './cross-tenant/articles.ts'
import * as comments from './cross-tenant/comments.ts'
import * as engagement from './cross-tenant/engagement.ts'
import * as player from './cross-tenant/player.ts'
import * as checkout from './cross-tenant/checkout.ts'
import * as payments from './cross-tenant/payments.ts'
import * as promo from './cross-tenant/promo.ts'
import * as money from './cross-tenant/money.ts'
import * as seats from './cross-tenant/seats.ts'
import * as integrations from './cross-tenant/integrations.ts'
import * as webhooks from './cross-tenant/webhooks.ts'
import * as courseBuilder from './cross-tenant/course-builder.ts'
import * as products from './cross-tenant/products.ts'
import * as students from './cross-tenant/students.ts'
import * as storefront from './cross-tenant/storefront.ts'
import * as subpages from './cross-tenant/subpages.ts'
import * as widgets from './cross-tenant/widgets.ts'
import * as community from './cross-tenant/community.ts'
import * as communityAdmin from './cross-tenant/community-admin.ts'
import * as communityGallery from './cross-tenant/community-gallery.ts'
import * as platformLogin from './cross-tenant/platform-login.ts'
import * as exams from './cross-tenant/exams.ts'
import * as certificates from './cross-tenant/certificates.ts'
import * as stats from './cross-tenant/stats.ts'
import * as shipping from './cross-tenant/shipping.ts'
import * as affiliates from './cross-tenant/affiliates.ts'
import * as operatorConsole from './cross-tenant/operator-console.ts'

/** Registries of the catalogue areas (issue 5), one file each: their routes and how to make their victims. */
export const AREAS = [products, courseBuilder, students, articles, storefront, subpages, widgets, comments, engagement, player, checkout, payments, promo, money, seats, integrations, webhooks, community, communityAdmin, communityGallery, platformLogin, exams, certificates, stats, shipping, affiliates, operatorConsole]

export type VictimBase = {
  tenantId: string
  studentSessionId: string
  resetToken: string
  handoverToken: string
  mailId: string
  domainId: string
  /** A file product of the victim school and one of its files (issue 4). */
  productId: string
  fileId: string
  /** A video of the victim school (issue 4). */
  videoId: string
}

/** The core objects above plus whatever the area registries create (`AREAS[i].victims`). */
export type VictimObjects = VictimBase & { [key: string]: string }

/** What an area's `victims()` gets to build its objects in the victim school. */
export type VictimSchool = { tenantId: string; ownerId: string; studentId: string }

export type IdRouteProbe = {
  method: 'GET' | 'POST'
  path: (v: VictimObjects) => string
  form?: Record<string, string>
  /** What the rightful user gets on the victim's own host (proves the route works). */
  control?: { status: number }
}

const CORE_ROUTES: Record<string, IdRouteProbe[]> = {
  'reset-password.$token': [
    { method: 'GET', path: (v) => `/reset-password/${v.resetToken}`, control: { status: 200 } },
    { method: 'POST', path: (v) => `/reset-password/${v.resetToken}`, form: { password: 'hijacked-1', password_confirmation: 'hijacked-1' } },
  ],
  'panel.sessions.$sessionId': [
    { method: 'GET', path: (v) => `/panel/sessions/${v.studentSessionId}` },
    { method: 'POST', path: (v) => `/panel/sessions/${v.studentSessionId}` },
  ],
  'operator.schools.$tenantId': [{ method: 'POST', path: (v) => `/operator/schools/${v.tenantId}`, form: { intent: 'suspend' } }],
  // Moving a school between shards (ADR 033): operators only, on the platform host only.
  'operator.schools.$tenantId_.move': [
    { method: 'GET', path: (v) => `/operator/schools/${v.tenantId}/move` },
    { method: 'POST', path: (v) => `/operator/schools/${v.tenantId}/move`, form: { intent: 'start', toShard: '0' } },
  ],
  'home_.settings.domain_.$domainId': [
    { method: 'GET', path: (v) => `/home/settings/domain/${v.domainId}` },
    { method: 'POST', path: (v) => `/home/settings/domain/${v.domainId}`, form: { intent: 'set_primary' } },
    { method: 'POST', path: (v) => `/home/settings/domain/${v.domainId}`, form: { intent: 'remove', confirm: 'DELETE' } },
    { method: 'POST', path: (v) => `/home/settings/domain/${v.domainId}`, form: { intent: 'check' } },
  ],
  'dev.mail.$id': [{ method: 'GET', path: (v) => `/dev/mail/${v.mailId}` }],
  // The ID travels in the query string here.
  'auth.handover': [{ method: 'GET', path: (v) => `/auth/handover?token=${v.handoverToken}` }],
  'home_.files_.$productId': [
    { method: 'GET', path: (v) => `/home/files/${v.productId}` },
    { method: 'POST', path: (v) => `/home/files/${v.productId}`, form: { intent: 'update', title: 'Hijacked' } },
    { method: 'POST', path: (v) => `/home/files/${v.productId}`, form: { intent: 'remove_file', fileId: 'victim-file' } },
    { method: 'POST', path: (v) => `/home/files/${v.productId}`, form: { intent: 'grant', email: 'same@example.com' } },
  ],
  'home_.files_.$productId_.uploads': [
    { method: 'GET', path: (v) => `/home/files/${v.productId}/uploads` },
    { method: 'POST', path: (v) => `/home/files/${v.productId}/uploads`, form: { step: 'create' } },
  ],
  'files.$productId.$fileId': [{ method: 'GET', path: (v) => `/files/${v.productId}/${v.fileId}` }],
  'home_.videos.$videoId': [
    { method: 'GET', path: (v) => `/home/videos/${v.videoId}` },
    { method: 'POST', path: (v) => `/home/videos/${v.videoId}`, form: { intent: 'rename', title: 'Hijacked' } },
    { method: 'POST', path: (v) => `/home/videos/${v.videoId}`, form: { intent: 'delete', confirm: 'on' } },
  ],
  'home_.videos.$videoId.refresh': [
    { method: 'GET', path: (v) => `/home/videos/${v.videoId}/refresh` },
    { method: 'POST', path: (v) => `/home/videos/${v.videoId}/refresh` },
  ],
  'home_.videos.$videoId.discard': [
    { method: 'GET', path: (v) => `/home/videos/${v.videoId}/discard` },
    { method: 'POST', path: (v) => `/home/videos/${v.videoId}/discard` },
  ],
}

export const ID_ROUTES: Record<string, IdRouteProbe[]> = Object.assign({}, CORE_ROUTES, ...AREAS.map((a) => a.routes))
