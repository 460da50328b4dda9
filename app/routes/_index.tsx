import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { mediaUrl } from '#app/media/origins.server.ts'
import { getT } from '#app/utils/request.server.ts'
import { useT } from '#app/utils/i18n-react.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

/** The same path is the platform's landing page or a school's home, decided by the host. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const t = getT(request, context)
  if (context.site.kind === 'school') {
    const { tenant } = context.site
    return { kind: 'school' as const, title: tenant.name, name: tenant.name, coverUrl: tenant.coverPath ? mediaUrl(context.cloudflare.env, request, tenant.coverPath) : null }
  }
  return { kind: 'platform' as const, title: t('platform.title'), name: 'Coursefront', coverUrl: null }
}

function PlatformLanding() {
  const t = useT()
  const features = ['domain', 'sell', 'fee'] as const
  return (
    <div className="space-y-16 py-6">
      <section className="mx-auto max-w-3xl text-center">
        <h1 className="text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">{t('platform.hero.title')}</h1>
        <p className="mt-6 text-lg leading-8 text-slate-600">{t('platform.hero.text')}</p>
        <Link to="/signup" className="mt-8 inline-block rounded-md bg-brand-600 px-6 py-3 text-base font-semibold text-white shadow hover:bg-brand-700">
          {t('platform.hero.cta')}
        </Link>
      </section>
      <section className="grid gap-6 sm:grid-cols-3">
        {features.map((f) => (
          <div key={f} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
            <h2 className="text-lg font-semibold">{t(`platform.feature.${f}.title`)}</h2>
            <p className="mt-2 text-slate-600">{t(`platform.feature.${f}.text`)}</p>
          </div>
        ))}
      </section>
    </div>
  )
}

function SchoolHome({ name, coverUrl }: { name: string; coverUrl: string | null }) {
  const t = useT()
  return (
    <section className="relative isolate overflow-hidden rounded-2xl bg-gradient-to-br from-brand-600 to-brand-800 px-6 py-16 text-center text-white shadow-lg sm:px-12">
      {coverUrl ? (
        <>
          {/* Decorative background; a dark layer keeps the welcome text readable on any photo. */}
          <img src={coverUrl} alt="" className="absolute inset-0 -z-20 size-full object-cover" data-school-cover />
          <div className="absolute inset-0 -z-10 bg-slate-900/55" />
        </>
      ) : null}
      <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{t('school.home.welcome', { name })}</h1>
      <p className="mx-auto mt-4 max-w-2xl text-lg text-brand-100">{t('school.home.text')}</p>
      <Link to="/courses" className="mt-8 inline-block rounded-md bg-white px-6 py-3 font-semibold text-brand-700 shadow hover:bg-brand-50">
        {t('school.home.cta')}
      </Link>
    </section>
  )
}

export default function Index() {
  const data = useLoaderData<typeof loader>()
  return data.kind === 'school' ? <SchoolHome name={data.name} coverUrl={data.coverUrl} /> : <PlatformLanding />
}
