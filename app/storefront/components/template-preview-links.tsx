// Page settings: open the school home in each template before saving (issue 23 §11). Plain links
// (no JS); root.tsx honours ?preview-template= for staff only, so visitors' cached pages never see it.
import { useT } from '#app/utils/i18n-react.ts'

export function TemplatePreviewLinks({ templates }: { templates: readonly string[] }) {
  const t = useT()
  return (
    <div className="space-y-1" data-template-previews>
      <p className="text-sm font-medium text-slate-700">{t('templates.preview.title')}</p>
      <ul className="flex flex-wrap gap-2">
        {templates.map((template) => (
          <li key={template}>
            <a
              href={`/?preview-template=${template}`}
              target="_blank"
              rel="noopener"
              className="inline-block rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-brand-700 hover:bg-slate-50"
              data-template-preview-link={template}
            >
              {t('templates.preview.link', { template: t(`page_settings.template.${template}` as 'page_settings.template.classic') })}
              <span className="sr-only"> {t('templates.preview.new_tab')}</span>
            </a>
          </li>
        ))}
      </ul>
    </div>
  )
}
