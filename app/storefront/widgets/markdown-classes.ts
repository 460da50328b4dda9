// Typography for sanitized markdown in blocks (rich text, FAQ answers, after-countdown content):
// Tailwind utilities on descendants, since the project has no typography plugin.
export const MARKDOWN_CLASSES = [
  'space-y-4 leading-relaxed break-words',
  '[&_h1]:text-3xl [&_h1]:font-bold [&_h2]:text-2xl [&_h2]:font-bold [&_h3]:text-xl [&_h3]:font-semibold [&_h4]:font-semibold',
  '[&_a]:font-medium [&_a]:text-brand-700 [&_a]:underline [&_a:hover]:text-brand-800',
  '[&_ul]:list-disc [&_ul]:pl-6 [&_ol]:list-decimal [&_ol]:pl-6 [&_li]:mt-1',
  '[&_blockquote]:border-l-4 [&_blockquote]:border-slate-300 [&_blockquote]:pl-4 [&_blockquote]:italic',
  '[&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_code]:text-sm [&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-slate-900 [&_pre]:p-4 [&_pre]:text-slate-100 [&_pre_code]:bg-transparent',
  '[&_img]:h-auto [&_img]:max-w-full [&_img]:rounded-md',
  '[&_table]:w-full [&_table]:text-left [&_th]:border-b [&_th]:py-2 [&_td]:border-b [&_td]:border-slate-100 [&_td]:py-2',
  '[&_hr]:border-slate-200',
].join(' ')
