// Sanitized markdown HTML (renderMarkdown on the server) with readable typography; the styles are
// scoped to this box with Tailwind's arbitrary variants (no typography plugin needed).
import { cx } from '#app/components/ui.tsx'

export const MARKDOWN_CLASS = cx(
  'max-w-none break-words leading-7 text-slate-800',
  '[&_p]:my-4 [&_h1]:mt-8 [&_h1]:mb-3 [&_h1]:text-3xl [&_h1]:font-bold [&_h2]:mt-8 [&_h2]:mb-3 [&_h2]:text-2xl [&_h2]:font-bold [&_h3]:mt-6 [&_h3]:mb-2 [&_h3]:text-xl [&_h3]:font-semibold',
  '[&_ul]:my-4 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:my-4 [&_ol]:list-decimal [&_ol]:pl-6 [&_li]:my-1',
  '[&_a]:text-brand-700 [&_a]:underline [&_a:focus-visible]:outline [&_a:focus-visible]:outline-2 [&_a:focus-visible]:outline-brand-500',
  '[&_blockquote]:my-4 [&_blockquote]:border-l-4 [&_blockquote]:border-slate-300 [&_blockquote]:pl-4 [&_blockquote]:italic',
  '[&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_code]:text-sm [&_pre]:my-4 [&_pre]:overflow-x-auto [&_pre]:rounded-lg [&_pre]:bg-slate-900 [&_pre]:p-4 [&_pre]:text-slate-100 [&_pre_code]:bg-transparent',
  '[&_img]:h-auto [&_img]:max-w-full [&_img]:rounded-lg [&_table]:block [&_table]:overflow-x-auto [&_hr]:my-8',
)

export function StorefrontMarkdown({ html, className, ...rest }: { html: string; className?: string } & Record<`data-${string}`, string | boolean>) {
  return <div className={cx(MARKDOWN_CLASS, className)} {...rest} dangerouslySetInnerHTML={{ __html: html }} />
}
