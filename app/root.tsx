import { formatDateTime } from '#app/utils/dates.ts'
import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import {
  Form,
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  NavLink,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from '@remix-run/react'
import { useEffect, type ReactNode } from 'react'
import { InstructorLayout, isInstructorPath } from '#app/shell/components/instructor-nav.tsx'
import { SearchModal } from '#app/storefront/components/search-modal.tsx'
import { cx } from '#app/components/ui.tsx'
import catalogueUrls from 'virtual:i18n-catalogues'
import { CATALOGUE_META_NAME } from '#app/i18n/catalogue-context.tsx'
import { LOCALES } from '#app/i18n/translate.ts'
import stylesheet from '#app/styles/tailwind.css?url'
import { getCurrentUser } from '#app/auth/auth.server.ts'
import { mediaUrl } from '#app/media/origins.server.ts'
import { isDevelopment } from '#app/utils/env.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { useNonce } from '#app/utils/nonce.ts'
import { getCreatorCode, PAGE_TEMPLATES, type PageTemplate } from '#app/models/page-settings.server.ts'
import { getCurrentOperator } from '#app/auth/operator-auth.server.ts'
import { getLocale } from '#app/utils/request.server.ts'
import { allowsCreatorScripts, CREATOR_SCRIPTS_MEMO_KEY, creatorScriptBlocks, type CreatorScript } from '#app/utils/security.server.ts'
import { goToLogin } from '#app/utils/go-to-login.ts'
import type { Flash } from '#app/utils/flash.ts'
import { clearFlashCookie, readFlash } from '#app/utils/flash.server.ts'

/** A route that is a conversion (the page after a payment) exports `handle = { creatorConversion: true }`. */
type CreatorHandle = { creatorConversion?: boolean }

/**
 * The creator's own scripts (ADR 013): on a school's public page for visitors and students only.
 * Staff never run them (they could act with the owner's session), and neither do the panels or
 * the sign-in pages. server.ts widens the CSP with 'strict-dynamic' only when this hands code out.
 */
async function creatorScriptsFor(request: Request, context: LoaderFunctionArgs['context'], viewerRole: string | null) {
  if (context.site.kind !== 'school' || viewerRole === 'owner' || viewerRole === 'admin') return null
  if (!allowsCreatorScripts(new URL(request.url).pathname)) return null
  // Most schools have none: skip the query (the flag comes with the cached tenant, site.server.ts).
  if (!context.site.tenant.hasCreatorCode) return null
  const code = await getCreatorCode(context.control, context.site.tenant.id)
  const scripts = { page: creatorScriptBlocks(code.customJs), conversion: creatorScriptBlocks(code.conversionCode) }
  if (!scripts.page.length && !scripts.conversion.length) return null
  context.memo.set(CREATOR_SCRIPTS_MEMO_KEY, true)
  return scripts
}

/** The `preview-template` query parameter, honoured for staff only (never for the cached visitors' page). */
const PREVIEW_TEMPLATE_PARAM = 'preview-template'

function asTemplate(value: string | null | undefined): PageTemplate | null {
  return value && (PAGE_TEMPLATES as readonly string[]).includes(value) ? (value as PageTemplate) : null
}

/**
 * The storefront template (issue 23 §11) from the cached tenant. Staff may preview another one
 * with ?preview-template=: their requests carry a session, so server.ts never stores the answer
 * in the page cache, and a visitor's copy of the same URL ignores the parameter.
 */
function templateFor(request: Request, saved: string, viewerRole: string | null) {
  const preview = viewerRole === 'owner' || viewerRole === 'admin' ? asTemplate(new URL(request.url).searchParams.get(PREVIEW_TEMPLATE_PARAM)) : null
  return { template: preview ?? asTemplate(saved) ?? 'classic', previewing: preview !== null }
}

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
]

export async function loader({ request, context }: LoaderFunctionArgs) {
  // The one-time message of the mutation that redirected here, cleared in this same answer.
  const flash = readFlash(request)
  const payload = { ...(await siteData(request, context)), flash }
  return flash ? data(payload, { headers: { 'Set-Cookie': clearFlashCookie(request) } }) : payload
}

async function siteData(request: Request, context: LoaderFunctionArgs['context']) {
  const locale = getLocale(request, context)
  const { site } = context
  if (site.kind === 'school') {
    const user = await getCurrentUser(request, context)
    return {
      locale,
      catalogueUrl: catalogueUrls[locale],
      // From the cached tenant (site.server.ts): no extra query per request.
      site: {
        kind: 'school' as const,
        name: site.tenant.name,
        slug: site.tenant.slug,
        avatarUrl: site.tenant.avatarPath ? mediaUrl(context.cloudflare.env, request, site.tenant.avatarPath) : null,
        contactEmail: site.tenant.contactEmail || null,
        ...templateFor(request, site.tenant.template, user?.role ?? null),
      },
      user: user ? { name: user.name, role: user.role } : null,
      /** An operator's read-only view as the owner (issue 27 §7): the banner on every page. */
      viewAs: user?.viewAs ? { until: user.viewAs.expiresAt } : null,
      operator: null,
      devMail: false,
      creatorScripts: await creatorScriptsFor(request, context, user?.role ?? null),
    }
  }
  const operator = await getCurrentOperator(request, context)
  return {
    locale,
    catalogueUrl: catalogueUrls[locale],
    site: { kind: 'platform' as const, name: 'Coursefront', slug: null, avatarUrl: null, contactEmail: null, template: null, previewing: false },
    user: null,
    viewAs: null,
    operator: operator ? { name: operator.name } : null,
    devMail: isDevelopment(context.cloudflare.env),
    creatorScripts: null,
  }
}

export type RootLoaderData = Awaited<ReturnType<typeof siteData>> & { flash: Flash | null }

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.site.name ?? 'Coursefront' }]

function SchoolHeader({ data }: { data: RootLoaderData }) {
  const t = useT()
  const navClass = ({ isActive }: { isActive: boolean }) =>
    cx('rounded-md px-3 py-2 text-sm font-medium', isActive ? 'bg-brand-50 text-brand-700' : 'text-slate-700 hover:bg-slate-100')
  return (
    <>
      <Link to="/" className="flex items-center gap-3 text-lg font-bold tracking-tight text-slate-900">
        {/* Decorative: the school's name follows it. */}
        {data.site.avatarUrl ? <img src={data.site.avatarUrl} alt="" width={36} height={36} className="size-9 rounded-full object-cover" data-school-avatar /> : null}
        {data.site.name}
      </Link>
      <nav aria-label={t('nav.main')} className="flex flex-wrap items-center gap-1">
        <SearchModal />
        <NavLink to="/courses" className={navClass}>
          {t('nav.courses')}
        </NavLink>
        <NavLink to="/blog" className={navClass}>
          {t('widgets.nav.blog')}
        </NavLink>
        {data.user ? (
          <>
            {data.user.role === 'student' ? null : (
              <NavLink to="/home" className={navClass}>
                {t('nav.home')}
              </NavLink>
            )}
            <NavLink to="/panel" className={navClass}>
              {t('nav.panel')}
            </NavLink>
            <NavLink to="/account" className={navClass}>
              {t('templates.nav.account')}
            </NavLink>
            <Form method="post" action="/logout">
              <button type="submit" className="rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100">
                {t('nav.logout')}
              </button>
            </Form>
          </>
        ) : (
          <>
            <NavLink to="/login" className={navClass}>
              {t('nav.login')}
            </NavLink>
            <Link to="/register" className="rounded-md bg-brand-600 px-3 py-2 text-sm font-semibold text-white hover:bg-brand-700">
              {t('nav.register')}
            </Link>
          </>
        )}
      </nav>
    </>
  )
}

function PlatformHeader({ data }: { data: RootLoaderData }) {
  const t = useT()
  const location = useLocation()
  const back = location.pathname + location.search
  return (
    <>
      <Link to="/" className="text-lg font-bold tracking-tight text-brand-700">
        Coursefront
      </Link>
      <nav aria-label={t('nav.main')} className="flex flex-wrap items-center gap-2">
        {data.devMail ? (
          <>
            <Link to="/dev/mail" className="rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100">
              {t('platform.nav.mail')}
            </Link>
            <Link to="/dev/dns" className="rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100">
              {t('platform.nav.dns')}
            </Link>
          </>
        ) : null}
        {data.operator ? (
          <Link to="/operator" className="rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100">
            {t('platform.nav.operator')}
          </Link>
        ) : null}
        <div className="flex items-center gap-1 text-sm" aria-label={t('lang.label')} role="group">
          {LOCALES.map((l) => (
            <a
              key={l}
              href={`/set-language?lang=${l}&redirectTo=${encodeURIComponent(back)}`}
              aria-current={l === data.locale ? 'true' : undefined}
              lang={l}
              className={cx('rounded px-2 py-1', l === data.locale ? 'bg-slate-200 font-semibold' : 'text-slate-600 hover:bg-slate-100')}
            >
              {t(`lang.${l}`)}
            </a>
          ))}
        </div>
        <Link to="/login" className="rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100">
          {t('platform.nav.login')}
        </Link>
        <Link to="/signup" className="rounded-md bg-brand-600 px-3 py-2 text-sm font-semibold text-white hover:bg-brand-700">
          {t('platform.nav.signup')}
        </Link>
      </nav>
    </>
  )
}

function CreatorScripts({ scripts, nonce }: { scripts: CreatorScript[]; nonce: string }) {
  // Rendered on the server with this response's nonce; React never runs them again on the client.
  return scripts.map((script, i) =>
    'src' in script ? <script key={i} nonce={nonce} src={script.src} async data-creator-script /> : <script key={i} nonce={nonce} data-creator-script dangerouslySetInnerHTML={{ __html: script.code }} />,
  )
}

/** Shown on every page of an operator's read-only view as the owner, with the way out. */
function ViewAsBanner({ school, until }: { school: string; until: number }) {
  const t = useT()
  return (
    <div role="region" aria-label={t('operator.view_as.title')} className="border-b border-amber-300 bg-amber-100 text-amber-950" data-view-as-banner>
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-2 text-sm sm:px-6">
        <p className="font-medium">{t('view_as.banner', { school, time: formatDateTime(until) })}</p>
        <form method="post" action="/auth/view-as-end">
          <button type="submit" className="rounded-md border border-amber-400 bg-white px-3 py-1 font-medium hover:bg-amber-50">
            {t('view_as.end')}
          </button>
        </form>
      </div>
    </div>
  )
}

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData('root') as RootLoaderData | undefined
  const nonce = useNonce()
  const matches = useMatches()
  const creator = data?.creatorScripts ?? null
  const conversion = creator && matches.some((m) => (m.handle as CreatorHandle | undefined)?.creatorConversion) ? creator.conversion : []
  const locale = data?.locale ?? 'en'
  const t = useT()
  const { pathname } = useLocation()
  // Staff on a school's /home pages get the panel's sidebar (students are sent to /panel by the pages).
  const inPanel = data?.site.kind === 'school' && !!data.user && data.user.role !== 'student' && isInstructorPath(pathname)
  // The school's look on its own pages, not in the panel (CSS in app/styles, no JS).
  const template = data?.site.kind === 'school' && !isInstructorPath(pathname) ? data.site.template : undefined
  return (
    <html lang={locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
        {data ? (
          <>
            {/* The page's translations, fetched by entry.client.tsx before hydrating. */}
            <meta name={CATALOGUE_META_NAME} content={data.catalogueUrl} />
            <link rel="preload" href={data.catalogueUrl} as="fetch" crossOrigin="anonymous" />
          </>
        ) : null}
        {creator ? <CreatorScripts scripts={creator.page} nonce={nonce} /> : null}
      </head>
      <body className="flex min-h-screen flex-col" data-template={template}>
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2">
          {t('nav.skip')}
        </a>
        {data ? (
          <header className="border-b border-slate-200 bg-white" data-site-header={data.site.kind}>
            <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3 sm:px-6">
              {data.site.kind === 'school' ? <SchoolHeader data={data} /> : <PlatformHeader data={data} />}
            </div>
          </header>
        ) : null}
        {data?.viewAs ? <ViewAsBanner school={data.site.name} until={data.viewAs.until} /> : null}
        {template && data?.site.previewing ? <TemplatePreviewBanner template={template} /> : null}
        <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6">
          {inPanel ? <InstructorLayout>{children}</InstructorLayout> : children}
        </main>
        <footer className="border-t border-slate-200 bg-white" data-site-footer>
          <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-4 py-4 text-sm text-slate-500 sm:px-6">
            <span>{t('footer.copyright', { year: new Date().getFullYear(), name: data?.site.name ?? 'Coursefront' })}</span>
            {data?.site.kind === 'school' && data.site.contactEmail ? (
              <a href={`mailto:${data.site.contactEmail}`} className="font-medium text-slate-700 underline hover:text-slate-900" data-contact-email>
                {t('templates.footer.contact', { email: data.site.contactEmail })}
              </a>
            ) : null}
            {data?.site.kind === 'school' ? (
              <nav aria-label={t('legal.footer.label')} className="flex gap-4">
                <Link to="/terms" className="underline hover:text-slate-900" data-footer-terms>
                  {t('legal.terms')}
                </Link>
                <Link to="/privacy" className="underline hover:text-slate-900" data-footer-privacy>
                  {t('legal.privacy')}
                </Link>
              </nav>
            ) : null}
            {data?.site.kind === 'school' ? <span>{t('footer.powered')}</span> : null}
          </div>
        </footer>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
        {conversion.length ? <CreatorScripts scripts={conversion} nonce={nonce} /> : null}
      </body>
    </html>
  )
}

function TemplatePreviewBanner({ template }: { template: PageTemplate }) {
  const t = useT()
  return (
    <div role="status" className="border-b border-amber-300 bg-amber-50" data-template-preview={template}>
      <p className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-4 py-2 text-sm text-amber-900 sm:px-6">
        <span>{t('templates.preview.banner', { template: t(`page_settings.template.${template}`) })}</span>
        <Link to="/home/settings/page" className="font-semibold underline">
          {t('templates.preview.back')}
        </Link>
      </p>
    </div>
  )
}

export default function App() {
  return <Outlet />
}

export function ErrorBoundary() {
  const error = useRouteError()
  const t = useT()
  const status = isRouteErrorResponse(error) ? error.status : 500
  useEffect(() => {
    // Seed 000 §7: an expired session (419) sends the user to /login.
    if (status === 419) goToLogin()
  }, [status])
  if (status !== 404 && status !== 419) console.error(error)
  const title = status === 404 ? t('error.not_found.title') : status === 419 ? t('error.session_expired') : t('error.generic.title')
  const text = status === 404 ? t('error.not_found.text') : status === 419 ? t('error.session_expired_reload') : t('error.generic.text')
  return (
    <div className="mx-auto max-w-xl py-16 text-center">
      <p className="text-sm font-semibold tracking-widest text-slate-500">{status}</p>
      <h1 className="mt-2 text-3xl font-bold">{title}</h1>
      <p className="mt-3 text-slate-600">{text}</p>
      <Link to="/" className="mt-6 inline-block font-semibold text-brand-700 underline">
        {t('error.back_home')}
      </Link>
    </div>
  )
}
