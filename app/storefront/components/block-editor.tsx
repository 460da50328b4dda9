// The sales-page editor's page (/home/subpages/{subpageId}/blocks): the block list with reorder,
// edit and delete, the add form, the edited block's form and the live preview beside it. The
// route keeps the loader and the add action; the block and order routes take the other posts.
import { Form, Link, useFetcher, useLocation, useNavigation, useSearchParams } from '@remix-run/react'
import { useEffect, useMemo, useState } from 'react'
import { BlockForm, defaultBlockProps, type DraftBlock } from '#app/storefront/components/block-forms/block-form.tsx'
import { issuesToErrors, type BlockErrors, type EditorOptions } from '#app/storefront/components/block-forms/parts.tsx'
import { BlockView } from '#app/storefront/components/blocks/block-view.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { SortableList } from '#app/components/sortable-list.tsx'
import { Alert, Button, Card, PageTitle, cx } from '#app/components/ui.tsx'
import type { BlockContext } from '#app/domain/block-context.ts'
import { BLOCK_TYPES, parseBlockProps, type BlockProps, type BlockType, type ParsedBlock } from '#app/domain/blocks.ts'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import type { FieldErrors, FormValues } from '#app/utils/validation.ts'

const PROBLEMS = new Set([
  'subpages.error.foreign_image',
  'subpages.error.foreign_product',
  'subpages.error.foreign_video',
  'subpages.error.too_many_blocks',
  'subpages.error.order',
  'subpages.error.props',
  'subpages.error.props_json',
  'validation.invalid',
  'validation.in',
])

export type BlockEditorData = {
  subpage: { id: string; title: string; slug: string; published: boolean }
  blocks: Array<{ id: string; type: string; parsed: ParsedBlock | null }>
  blockContext: BlockContext
  options: EditorOptions
}
/** A refused add (the no-JavaScript form) or a refused save (the block form's fetcher). */
export type BlockEditorAnswer = { errors?: FieldErrors; values?: FormValues }
type ActionResult = BlockEditorAnswer
type LoaderData = BlockEditorData

function summary(block: ParsedBlock | null) {
  if (!block) return ''
  const p = block.props as Record<string, unknown>
  const text = [p.heading, p.markdown, p.url, p.caption].find((v) => typeof v === 'string' && v.trim()) as string | undefined
  return text
    ? text
        .replace(/[#*_>`]/g, '')
        .trim()
        .slice(0, 60)
    : ''
}

export function BlockEditorPage({ data, actionData }: { data: BlockEditorData; actionData: BlockEditorAnswer | undefined }) {
  const [params] = useSearchParams()
  const t = useT()
  const message = useFieldMessage()
  const navigation = useNavigation()
  const orderFetcher = useFetcher()
  // Also while a reorder saves and its redirect lands: that navigation would close a draft opened meanwhile.
  const busy = navigation.state === 'submitting' || orderFetcher.state !== 'idle'
  const base = `/home/subpages/${data.subpage.id}/blocks`
  const editId = params.get('edit')
  const deleteId = params.get('delete')
  const problem = params.get('problem')
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])

  // The block being edited: an existing one (?edit=) or a new one not saved yet.
  const [newType, setNewType] = useState<BlockType | null>(null)
  const [addType, setAddType] = useState<BlockType>('hero')
  const editing = useMemo(() => data.blocks.find((b) => b.id === editId) ?? null, [data.blocks, editId])
  // Any navigation (a save, another block opened) closes a new block's unsaved draft.
  const locationKey = useLocation().key
  useEffect(() => setNewType(null), [locationKey])
  const labelOf = (id: string) => {
    const b = data.blocks.find((x) => x.id === id)
    return b ? `${t(`subpages.type.${b.type}`)}${summary(b.parsed) ? `: ${summary(b.parsed)}` : ''}` : ''
  }
  const draftTarget: { id: string; type: BlockType; props: BlockProps } | null = newType
    ? {
        id: 'new',
        type: newType,
        props: defaultBlockProps(newType, t, data.options.products[0]?.id ?? ''),
      }
    : editing?.parsed
    ? {
        id: editing.id,
        type: editing.parsed.type,
        props: editing.parsed.props,
      }
    : null

  return (
    <div className="space-y-6">
      <Link to="/home/subpages" className="text-sm font-medium text-brand-700 hover:underline">
        ← {t('subpages.back')}
      </Link>
      <PageTitle
        subtitle={
          <span className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
            <span>
              /p/{data.subpage.slug} · {data.subpage.published ? t('subpages.status.published') : t('subpages.status.draft')}
            </span>
            <Link to={`/home/subpages/${data.subpage.id}`} className="font-medium text-brand-700 underline">
              {t('subpages.settings_link')}
            </Link>
            <a href={`/p/${data.subpage.slug}`} className="font-medium text-brand-700 underline">
              {t('subpages.view')}
            </a>
          </span>
        }
      >
        {data.subpage.title}
      </PageTitle>
      <FlashMessage hidden={Boolean(actionData)} />
      {problem && PROBLEMS.has(problem) ? <Alert>{t(problem)}</Alert> : null}
      {actionData?.errors?.form ? (
        <Alert>
          <p>{message(actionData.errors.form)}</p>
          {/* Without JavaScript there is no block form to mark: list each field's problem. */}
          <ul className="mt-1 list-disc pl-5" data-block-errors>
            {Object.entries(actionData.errors)
              .filter(([path]) => path !== 'form')
              .map(([path, error]) => (
                <li key={path} data-field-error={path}>
                  <code className="text-xs">{path}</code>: {message(error)}
                </li>
              ))}
          </ul>
        </Alert>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-2 lg:items-start">
        <Card className="min-w-0 lg:col-start-1">
          <h2 className="text-lg font-semibold">{t('subpages.blocks')}</h2>
          {data.blocks.length === 0 ? <p className="mt-2 text-sm text-slate-600">{t('subpages.blocks_empty')}</p> : null}
          <SortableList
            items={data.blocks.map((b) => ({ id: b.id, label: labelOf(b.id) }))}
            onReorder={(ids) => orderFetcher.submit({ order: ids.join(',') }, { method: 'post', action: `${base}/order` })}
            label={t('subpages.blocks')}
            name="blocks"
            className="mt-3 divide-y divide-slate-100 rounded-md border border-slate-200 empty:hidden"
          >
            {(item, handle) => {
              const index = data.blocks.findIndex((b) => b.id === item.id)
              const block = data.blocks[index]
              return (
                <div className={cx('space-y-2 p-3', editId === item.id && 'bg-brand-50')} data-block-row={block.type}>
                  <div className="flex flex-wrap items-center gap-2">
                    {handle}
                    <span className="min-w-0 flex-1 truncate text-sm font-medium text-slate-800">{item.label}</span>
                    {block.parsed ? null : <span className="text-xs text-red-700">{t('subpages.block_broken')}</span>}
                  </div>
                  <div className="flex flex-wrap items-center gap-2">
                    <Link
                      to={`${base}?edit=${block.id}`}
                      preventScrollReset
                      className="rounded-md border border-slate-300 px-2 py-1 text-xs font-semibold text-slate-800 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-300"
                      aria-label={t('subpages.edit_label', {
                        name: item.label,
                      })}
                    >
                      {t('subpages.edit')}
                    </Link>
                    <Form method="post" action={`${base}/order`} className="flex gap-1" preventScrollReset>
                      <input type="hidden" name="id" value={block.id} />
                      <Button
                        type="submit"
                        name="move"
                        value="up"
                        variant="secondary"
                        className="px-2 py-1 text-xs"
                        disabled={index === 0}
                        aria-label={t('subpages.move_up_label', {
                          name: item.label,
                        })}
                      >
                        {t('subpages.move_up')}
                      </Button>
                      <Button
                        type="submit"
                        name="move"
                        value="down"
                        variant="secondary"
                        className="px-2 py-1 text-xs"
                        disabled={index === data.blocks.length - 1}
                        aria-label={t('subpages.move_down_label', {
                          name: item.label,
                        })}
                      >
                        {t('subpages.move_down')}
                      </Button>
                    </Form>
                    <Link
                      to={`${base}?delete=${block.id}`}
                      preventScrollReset
                      className="rounded-md px-2 py-1 text-xs font-semibold text-red-700 underline hover:bg-red-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-300"
                      aria-label={t('subpages.delete_block_label', {
                        name: item.label,
                      })}
                    >
                      {t('subpages.delete_block')}
                    </Link>
                  </div>
                  {deleteId === block.id ? (
                    <Form method="post" action={`${base}/${block.id}`} className="flex flex-wrap items-center gap-2 rounded-md border border-red-200 bg-red-50 p-2" data-delete-confirm>
                      <input type="hidden" name="intent" value="delete" />
                      <p className="text-sm text-red-800">{t('subpages.delete_block_confirm')}</p>
                      <Button type="submit" variant="danger" className="px-2 py-1 text-xs" disabled={busy}>
                        {t('subpages.delete_block_yes')}
                      </Button>
                      <Link to={base} className="text-xs font-medium text-slate-700 underline">
                        {t('subpages.cancel')}
                      </Link>
                    </Form>
                  ) : null}
                </div>
              )
            }}
          </SortableList>
          <Form
            method="post"
            className="mt-4 flex flex-wrap items-end gap-2"
            data-add-block
            onSubmit={(event) => {
              // With JavaScript a new block opens in the editor first (images can be uploaded, the preview shows it).
              event.preventDefault()
              setNewType(addType)
            }}
          >
            <div className="min-w-48 flex-1 space-y-1">
              <label htmlFor="add-block-type" className="block text-sm font-medium text-slate-700">
                {t('subpages.add_type')}
              </label>
              <select
                id="add-block-type"
                name="type"
                value={addType}
                onChange={(e) => setAddType(e.target.value as BlockType)}
                className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100"
              >
                {BLOCK_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {t(`subpages.type.${type}`)}
                  </option>
                ))}
              </select>
            </div>
            <Button type="submit" disabled={busy}>
              {t('subpages.add')}
            </Button>
          </Form>
        </Card>
        {draftTarget ? (
          <BlockEditorPanel
            key={`${draftTarget.id}-${draftTarget.type}`}
            base={base}
            target={draftTarget}
            options={data.options}
            hydrated={hydrated}
            onCancelNew={() => setNewType(null)}
            context={data.blockContext}
            blocks={data.blocks}
          />
        ) : (
          <LivePreview blocks={data.blocks} context={data.blockContext} override={null} />
        )}
      </div>
    </div>
  )
}

/** The form of the edited block and, beside it, the preview that follows the draft. */
function BlockEditorPanel({
  base,
  target,
  options,
  hydrated,
  onCancelNew,
  context,
  blocks,
}: {
  base: string
  target: { id: string; type: BlockType; props: BlockProps }
  options: EditorOptions
  hydrated: boolean
  onCancelNew: () => void
  context: LoaderData['blockContext']
  blocks: LoaderData['blocks']
}) {
  const t = useT()
  const message = useFieldMessage()
  const fetcher = useFetcher<ActionResult>()
  const isNew = target.id === 'new'
  const [draft, setDraft] = useState<BlockProps>(target.props)
  const [lastValid, setLastValid] = useState<ParsedBlock | null>(() => {
    const parsed = parseBlockProps(target.type, target.props)
    return parsed.success
      ? ({
          id: target.id,
          type: target.type,
          props: parsed.data,
        } as ParsedBlock)
      : null
  })
  const [clientErrors, setClientErrors] = useState<BlockErrors>({})
  const [touched, setTouched] = useState(false)
  const serverErrors = fetcher.state === 'idle' && fetcher.data?.errors ? fetcher.data.errors : {}
  const errors: BlockErrors = touched ? { ...serverErrors, ...clientErrors } : serverErrors

  function change(next: BlockProps) {
    setDraft(next)
    setTouched(true)
    const parsed = parseBlockProps(target.type, next)
    if (parsed.success) {
      setLastValid({
        id: target.id,
        type: target.type,
        props: parsed.data,
      } as ParsedBlock)
      setClientErrors({})
    } else setClientErrors(issuesToErrors(parsed.error.issues))
  }

  const json = JSON.stringify(draft)
  const action = isNew ? base : `${base}/${target.id}`
  const invalid = Object.keys(clientErrors).length > 0
  const draftBlock = {
    id: target.id,
    type: target.type,
    props: draft,
  } as DraftBlock
  return (
    <>
      <Card className="min-w-0 lg:col-start-1" data-block-editor={target.type}>
        <h2 className="text-lg font-semibold">
          {isNew
            ? t('subpages.new_block', {
                type: t(`subpages.type.${target.type}`),
              })
            : t('subpages.edit_block', {
                type: t(`subpages.type.${target.type}`),
              })}
        </h2>
        {serverErrors.form ? (
          <div className="mt-3">
            <Alert>{message(serverErrors.form)}</Alert>
          </div>
        ) : null}
        <fetcher.Form method="post" action={action} className="mt-4 space-y-5" noValidate>
          {isNew ? <input type="hidden" name="type" value={target.type} /> : <input type="hidden" name="intent" value="save" />}
          {hydrated ? (
            <>
              <input type="hidden" name="props" value={json} />
              <input type="hidden" name="_js" value="1" />
              <BlockForm draft={draftBlock} onChange={change} errors={errors} options={options} />
            </>
          ) : (
            // Without JavaScript: the props as JSON, validated by the server all the same.
            <div className="space-y-1">
              <label htmlFor="props-json" className="block text-sm font-medium text-slate-700">
                {t('subpages.props_json')}
              </label>
              <textarea id="props-json" name="props" rows={12} defaultValue={JSON.stringify(target.props, null, 2)} className="block w-full rounded-md border border-slate-300 p-2 font-mono text-xs" />
            </div>
          )}
          {touched && invalid ? (
            <p className="text-sm text-amber-700" role="status" data-draft-invalid>
              {t('subpages.draft_invalid')}
            </p>
          ) : null}
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" disabled={fetcher.state !== 'idle'}>
              {isNew ? t('subpages.save_new') : t('subpages.save_block')}
            </Button>
            {isNew ? (
              <Button type="button" variant="secondary" onClick={onCancelNew}>
                {t('subpages.cancel')}
              </Button>
            ) : (
              <Link to={base} className="text-sm font-medium text-slate-700 underline">
                {t('subpages.close')}
              </Link>
            )}
          </div>
        </fetcher.Form>
      </Card>
      <LivePreview blocks={blocks} context={context} override={lastValid ? { block: lastValid, isNew } : null} newPending={isNew && !lastValid} />
    </>
  )
}

/** The page as visitors see it; the edited block shows its last valid draft. */
function LivePreview({
  blocks,
  context,
  override,
  newPending,
}: {
  blocks: LoaderData['blocks']
  context: LoaderData['blockContext']
  override: { block: ParsedBlock; isNew: boolean } | null
  newPending?: boolean
}) {
  const t = useT()
  const list: ParsedBlock[] = blocks.map((b) => (override && !override.isNew && b.id === override.block.id ? override.block : b.parsed)).filter((b): b is ParsedBlock => b !== null)
  if (override?.isNew) list.push(override.block)
  return (
    <Card className="min-w-0 lg:sticky lg:top-4 lg:col-start-2 lg:row-span-2 lg:row-start-1" aria-labelledby="live-preview-title">
      <h2 id="live-preview-title" className="text-lg font-semibold">
        {t('subpages.preview')}
      </h2>
      <p className="mt-1 text-xs text-slate-500">{t('subpages.preview_hint')}</p>
      <div className="mt-4 overflow-hidden rounded-lg border border-slate-200 bg-white p-4" data-live-preview>
        {list.length === 0 ? <p className="text-sm text-slate-500">{t('subpages.preview_empty')}</p> : null}
        <div className="space-y-12" data-blocks>
          {list.map((block) => (
            <div key={block.id} data-preview-block={block.id === 'new' ? 'new' : block.type}>
              <BlockView block={block} context={context} />
            </div>
          ))}
        </div>
        {newPending ? <p className="mt-4 text-sm text-slate-500">{t('subpages.preview_new_pending')}</p> : null}
      </div>
    </Card>
  )
}
