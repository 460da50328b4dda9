// /home/settings/data (issue 27 §8): the school's owner exports everything the school holds (one
// JSON document: every table's rows of this school, secrets redacted, and the list of its files)
// and downloads it through a signed link that works on this school's host only, for 24 hours.
// Deleting a school is the platform's (the operator console), not a button here.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Form, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { audit, staffActor } from '#app/audit/audit.server.ts'
import { requireOwner, staffAction } from '#app/auth/staff.server.ts'
import { FlashMessage } from '#app/components/flash.tsx'
import { Button, Card, PageTitle } from '#app/components/ui.tsx'
import { ExportsTable } from '#app/schools/components/exports-table.tsx'
import { requestSchoolExport, schoolExportViews } from '#app/schools/export-school.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { getT } from '#app/utils/request.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireOwner(args)
  const { request, context } = args
  return {
    title: `${getT(request, context)('school_data.owner_title')} · ${tenant.name}`,
    exports: await schoolExportViews(context.cloudflare.env, tenant.id, (token) => `/home/settings/data/download/${token}`),
  }
}

export const action = staffAction({
  roles: ['owner'],
  intents: (intent) => ({
    export: intent(z.object({}), async (_input, { tenant, user, request, context }) => {
      const actor = staffActor(user)
      const done = await requestSchoolExport(context.cloudflare.env, tenant.id, actor.label)
      await audit(context, request, { tenantId: tenant.id, actor, action: 'school.export', target: done.id, before: null, after: { status: done.status } })
      throw redirectWithFlash(
        request,
        '/home/settings/data',
        done.status === 'ready' ? { done: 'export_ready', message: 'school_data.export.done' } : { done: 'export_failed', message: 'school_data.export.failed' },
        { status: 303 },
      )
    }),
  }),
})

export default function SchoolDataSettings() {
  const t = useT()
  const { exports } = useLoaderData<typeof loader>()
  const busy = useNavigation().state === 'submitting'
  return (
    <div className="space-y-6">
      <PageTitle subtitle={t('school_data.owner_intro')}>{t('school_data.owner_title')}</PageTitle>
      <FlashMessage />
      <Card className="space-y-3" data-school-exports>
        <h2 className="text-lg font-semibold">{t('school_data.export.heading')}</h2>
        <p className="text-sm text-slate-600">{t('school_data.export.explain')}</p>
        <Form method="post">
          <input type="hidden" name="intent" value="export" />
          <Button type="submit" disabled={busy}>
            {t('school_data.export.button')}
          </Button>
        </Form>
        <ExportsTable exports={exports} showRequester={false} />
      </Card>
    </div>
  )
}
