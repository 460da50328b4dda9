// The product kinds a school sells, in the order the panel lists them. The schema's enum, repeated
// here: a .server module cannot reach the browser bundle (the `satisfies` keeps the two in step).
import type { ProductKind } from '#app/db/schema.server.ts'

export const PRODUCT_KIND_LIST = ['course', 'bundle', 'membership', 'live_event', 'file', 'consultation', 'physical'] as const satisfies readonly ProductKind[]
