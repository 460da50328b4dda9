import { auth } from './auth.ts'
import { common } from './common.ts'
import { domains } from './domains.ts'
import { media } from './media.ts'
import { operator } from './operator.ts'
import { platform } from './platform.ts'
import { school } from './school.ts'
import { validation } from './validation.ts'

export const messages = {
  en: { ...common.en, ...validation.en, ...auth.en, ...platform.en, ...operator.en, ...school.en, ...domains.en, ...media.en },
  pl: { ...common.pl, ...validation.pl, ...auth.pl, ...platform.pl, ...operator.pl, ...school.pl, ...domains.pl, ...media.pl },
}

export type MessageKey = keyof typeof messages.en
