// What a change on /home/settings/domain leaves for the page (issue 20: flash instead of `?done=`).
// Shared by the change action and the page, which also receives it through a sign-in hand-over to
// another host (`?flash=&host=`), where the flash cookie of the first host cannot follow.
import type { Flash } from '#app/utils/flash.ts'

export const DOMAIN_DONE = { added: 'added', check: 'check_started', set_primary: 'primary_set', unset_primary: 'primary_cleared', remove: 'removed' } as const

export type DomainDone = (typeof DOMAIN_DONE)[keyof typeof DOMAIN_DONE]

export const isDomainDone = (value: unknown): value is DomainDone => Object.values(DOMAIN_DONE).includes(value as DomainDone)

export const domainFlash = (done: DomainDone, hostname: string): Flash => ({ done, message: `domains.${done}`, values: { hostname } })
