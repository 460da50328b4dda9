import { auth } from './auth.ts'
import { common } from './common.ts'
import { core } from './core.ts'
import { domains } from './domains.ts'
import { instructor } from './instructor.ts'
import { products } from './products.ts'
import { courses } from './courses.ts'
import { students } from './students.ts'
import { articles } from './articles.ts'
import { files } from './files.ts'
import { media } from './media.ts'
import { mediaAdmin } from './media-admin.ts'
import { operator } from './operator.ts'
import { pageSettings } from './page-settings.ts'
import { platform } from './platform.ts'
import { school } from './school.ts'
import { validation } from './validation.ts'
import { videos } from './videos.ts'
import { blocks } from './blocks.ts'
import { storefront } from './storefront.ts'
import { subpages } from './subpages.ts'
import { widgets } from './widgets.ts'
import { player } from './player.ts'
import { comments } from './comments.ts'
import { engagement } from './engagement.ts'
import { verification } from './verification.ts'
import { panel } from './panel.ts'
import { checkout } from './checkout.ts'
import { payments } from './payments.ts'
import { promo } from './promo.ts'
import { money } from './money.ts'
import { seats } from './seats.ts'

export const messages = {
  en: { ...core.en, ...common.en, ...validation.en, ...auth.en, ...platform.en, ...operator.en, ...school.en, ...domains.en, ...media.en, ...mediaAdmin.en, ...pageSettings.en, ...files.en, ...videos.en, ...instructor.en, ...products.en, ...courses.en, ...students.en, ...articles.en, ...blocks.en, ...storefront.en, ...subpages.en, ...widgets.en, ...player.en, ...comments.en, ...engagement.en, ...verification.en, ...panel.en, ...checkout.en, ...payments.en, ...promo.en, ...money.en, ...seats.en },
  pl: { ...core.pl, ...common.pl, ...validation.pl, ...auth.pl, ...platform.pl, ...operator.pl, ...school.pl, ...domains.pl, ...media.pl, ...mediaAdmin.pl, ...pageSettings.pl, ...files.pl, ...videos.pl, ...instructor.pl, ...products.pl, ...courses.pl, ...students.pl, ...articles.pl, ...blocks.pl, ...storefront.pl, ...subpages.pl, ...widgets.pl, ...player.pl, ...comments.pl, ...engagement.pl, ...verification.pl, ...panel.pl, ...checkout.pl, ...payments.pl, ...promo.pl, ...money.pl, ...seats.pl },
}

export type MessageKey = keyof typeof messages.en
