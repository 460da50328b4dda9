// Cross-tenant registry of the sales-page editor (issue 6): every route file with a URL parameter
// in this area, how to address the victim school's object, and how to create those objects.
import { createBlock } from '#app/models/block.server.ts'
import { createSubpage } from '#app/models/subpage.server.ts'
import { dbOf } from '#tests/factories.ts'
import type { IdRouteProbe, VictimObjects, VictimSchool } from '../cross-tenant-routes.ts'

const page = (v: VictimObjects) => `/home/subpages/${v.subpageId}`
const blocks = (v: VictimObjects) => `${page(v)}/blocks`

export const routes: Record<string, IdRouteProbe[]> = {
  'home_.subpages.$subpageId': [
    { method: 'GET', path: page, control: { status: 302 } }, // on its own host: the sign-in redirect, not 404
    {
      method: 'POST',
      path: page,
      form: {
        intent: 'save',
        title: 'Hijacked',
        slug: 'hijacked',
        seoTitle: '',
        seoDescription: '',
      },
    },
    {
      method: 'POST',
      path: page,
      form: { intent: 'delete', confirm: 'DELETE' },
    },
  ],
  'home_.subpages_.$subpageId.blocks': [
    { method: 'GET', path: blocks, control: { status: 302 } },
    {
      method: 'POST',
      path: blocks,
      form: {
        type: 'rich_text',
        props: JSON.stringify({ markdown: 'Hijacked' }),
      },
    },
  ],
  'home_.subpages_.$subpageId.blocks_.$blockId': [
    { method: 'GET', path: (v) => `${blocks(v)}/${v.blockId}` },
    {
      method: 'POST',
      path: (v) => `${blocks(v)}/${v.blockId}`,
      form: { intent: 'save', props: JSON.stringify({ markdown: 'Hijacked' }) },
    },
    {
      method: 'POST',
      path: (v) => `${blocks(v)}/${v.blockId}`,
      form: { intent: 'delete' },
    },
  ],
  'home_.subpages_.$subpageId.blocks_.order': [
    { method: 'GET', path: (v) => `${blocks(v)}/order` },
    { method: 'POST', path: (v) => `${blocks(v)}/order`, form: { order: 'x' } },
    {
      method: 'POST',
      path: (v) => `${blocks(v)}/order`,
      form: { id: 'x', move: 'up' },
    },
  ],
}

/** Creates this area's objects in the victim school; the keys become fields of VictimObjects. */
export async function victims(school: VictimSchool): Promise<Record<string, string>> {
  const subpage = await createSubpage(dbOf(school.tenantId), school.tenantId, {
    title: 'Victim page',
    slug: `victim-${crypto.randomUUID().slice(0, 8)}`,
    published: false,
    seoTitle: '',
    seoDescription: '',
  })
  if (!subpage) throw new Error('victim subpage not created')
  const block = await createBlock(dbOf(school.tenantId), school.tenantId, subpage.id, 'rich_text', { markdown: 'Secret offer' })
  if (!block?.ok) throw new Error('victim block not created')
  return { subpageId: subpage.id, blockId: block.block.id }
}
