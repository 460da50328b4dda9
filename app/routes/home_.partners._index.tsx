// /home/partners (issue 24 item 5): the school's affiliate partners with their code, commission,
// sales and commission owed per currency, and the form to add one (the code may be left empty:
// one is made from the name). Owners and admins, as promo codes and the balance; bad input
// answers field errors and writes nothing.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { CommissionLabel, echoPartnerInput, MoneyList, PartnerForm, type PartnerFormValues } from '#app/affiliates/components/partner-form.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { Card, PageTitle } from '#app/components/ui.tsx'
import { createPartner, freePartnerCode, listPartners, PartnerFormSchema } from '#app/models/affiliate.server.ts'
import { requireStaff, staffAction } from '#app/auth/staff.server.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { getT } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import type { FieldErrors } from '#app/utils/validation.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.pageTitle }]

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const partners = await listPartners(context.db, tenant.id)
  return {
    pageTitle: `${getT(request, context)('affiliates.title')} · ${tenant.name}`,
    currency: tenant.currency,
    partners: partners.map((p) => ({
      id: p.id,
      name: p.name,
      code: p.code,
      kind: p.commissionKind,
      value: p.commissionValue,
      active: p.active,
      sales: p.figures.reduce((n, f) => n + f.sales, 0),
      owed: p.figures.map((f) => ({ currency: f.currency, amount: f.owed })),
    })),
  }
}

export const action = staffAction({
  invalidStatus: 422,
  intents: (intent) => {
    const create = intent(PartnerFormSchema, async (input, { tenant, request, context, fields }) => {
      const code = input.code || (await freePartnerCode(context.db, tenant.id, input.name))
      const created = await createPartner(context.db, tenant.id, { ...input, code })
      if (!created.ok) return formError({ code: { key: 'affiliates.error.code_taken' } }, echoPartnerInput(fields), 422)
      throw redirectWithFlash(request, `/home/partners/${created.partner.id}`, { done: 'created', message: 'affiliates.done.created' }, { status: 303 })
    })
    // The form posts intent=save; a bare post (no intent) creates too.
    return { default: create, save: create }
  },
})

export default function PartnersPage() {
  const data = useLoaderData<typeof loader>()
  const action = useActionData<{ errors: FieldErrors; values: PartnerFormValues }>()
  const t = useT()
  const locale = useLocale()
  return (
    <div className="space-y-6">
      <PageTitle subtitle={t('affiliates.intro')}>{t('affiliates.title')}</PageTitle>
      <FlashMessage hidden={Boolean(action)} />
      <Card>
        {data.partners.length === 0 ? (
          <p className="text-sm text-slate-600">{t('affiliates.empty')}</p>
        ) : (
          <>
            <p className="mb-3 text-sm text-slate-500">{t('affiliates.count', { count: data.partners.length })}</p>
            <DataTable
              data-partners
              caption={t('affiliates.title')}
              rows={data.partners}
              rowKey={(p) => p.id}
              rowProps={(p) => ({ 'data-partner-row': p.code })}
              columns={[
                { key: 'name', header: t('affiliates.col.name'), className: 'font-medium', cell: (p) => p.name },
                { key: 'code', header: t('affiliates.col.code'), className: 'font-mono', cell: (p) => p.code },
                { key: 'commission', header: t('affiliates.col.commission'), cell: (p) => <CommissionLabel kind={p.kind} value={p.value} currency={data.currency} /> },
                { key: 'sales', header: t('affiliates.col.sales'), cellProps: () => ({ 'data-partner-sales': true }), cell: (p) => p.sales },
                {
                  key: 'owed',
                  header: t('affiliates.col.owed'),
                  cellProps: () => ({ 'data-partner-owed': true }),
                  cell: (p) => <MoneyList items={p.owed} locale={locale} empty={t('affiliates.owed_none')} />,
                },
                { key: 'status', header: t('affiliates.col.status'), cell: (p) => (p.active ? t('affiliates.status.active') : t('affiliates.status.inactive')) },
                {
                  key: 'manage',
                  header: t('affiliates.manage'),
                  srOnlyHeader: true,
                  cell: (p) => (
                    <Link to={`/home/partners/${p.id}`} className="font-medium text-brand-700 hover:underline">
                      {t('affiliates.manage')}
                      <span className="sr-only"> {p.name}</span>
                    </Link>
                  ),
                },
              ]}
            />
          </>
        )}
      </Card>
      <Card>
        <h2 className="text-lg font-semibold">{t('affiliates.new')}</h2>
        <PartnerForm currency={data.currency} values={action?.values ?? {}} errors={action?.errors ?? {}} submitLabel={t('affiliates.create')} dataAttr="data-partner-create" />
      </Card>
    </div>
  )
}
