import {
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  useNavigation,
  useSearchParams,
} from "@remix-run/react";
import { z } from "zod";
import { ImageUpload } from "#app/components/image-upload.tsx";
import { InstructorNav } from "#app/components/instructor-nav.tsx";
import {
  ProductAccessSection,
  ProductDetailsFields,
  ProductKindSection,
  ProductPricingSection,
  ProductPromotionSection,
  ProductSeoSection,
  ProductStatus,
  productFormInput,
  productFormValues,
  productSchema,
} from "#app/components/product-form.tsx";
import {
  Alert,
  Button,
  Card,
  Field,
  PageTitle,
  SelectField,
  TextAreaField,
} from "#app/components/ui.tsx";
import { mediaUrl } from "#app/media/origins.server.ts";
import { getTenantMediaObject } from "#app/models/media.server.ts";
import { countFilesByProduct } from "#app/models/product-file.server.ts";
import {
  listLinkCandidates,
  listLinkedIds,
} from "#app/models/product-link.server.ts";
import {
  listPrices,
  lowestPriceLast30Days,
} from "#app/models/product-price.server.ts";
import {
  deleteProduct,
  duplicateProduct,
  getProduct,
  listBumpCandidates,
  PRODUCT_SLUG_PATTERN,
  saveCatalogue,
  setProductBump,
  setProductSlug,
  setPublished,
} from "#app/models/product.server.ts";
import { requireUser } from "#app/auth/auth.server.ts";
import { useFieldMessage, useLocale, useT } from "#app/utils/i18n-react.ts";
import {
  formatMoney,
  formatMoneyInput,
  optionalMoney,
} from "#app/utils/money.ts";
import {
  getLocale,
  getT,
  notFound,
  requireSchool,
} from "#app/utils/request.server.ts";
import { formError } from "#app/utils/responses.server.ts";
import {
  msg,
  parseWith,
  type FieldErrors,
  type FormValues,
} from "#app/utils/validation.ts";

const IntentSchema = z.object({
  intent: z.enum([
    "save",
    "publish",
    "unpublish",
    "duplicate",
    "delete",
    "bump",
  ]),
});
/** Seed 001 §5 text limit 150 for the bump's pitch. */
export const BUMP_TEXT_MAX = 150;
const BumpSchema = z.object({
  bumpProductId: z
    .string()
    .max(64)
    .optional()
    .transform((v) => (v ?? "").trim() || null),
  bumpPrice: optionalMoney(),
  bumpText: z
    .string()
    .optional()
    .transform((v) => (v ?? "").trim())
    .pipe(
      z
        .string()
        .max(BUMP_TEXT_MAX)
        .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), {
          message: msg("validation.invalid"),
        })
    ),
});
const SaveExtras = z.object({
  slug: z
    .string()
    .optional()
    .transform((s) => (s ?? "").trim().toLowerCase())
    .pipe(
      z
        .string()
        .min(1)
        .max(60)
        .regex(PRODUCT_SLUG_PATTERN, {
          message: msg("products.error.slug_format"),
        })
    ),
  coverPath: z
    .string()
    .max(300)
    .optional()
    .transform((v) => (v ?? "").trim() || null),
});
// Seed 001 §5: deletion requires typing DELETE.
const DeleteSchema = z.object({
  confirm: z.literal("DELETE", {
    errorMap: () => ({ message: msg("products.error.type_delete") }),
  }),
});

const DONE = [
  "created",
  "saved",
  "published",
  "unpublished",
  "duplicated",
  "bump_saved",
] as const;

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.title },
];

/** The product is looked up in this school first: another school's id is 404 for everyone. */
async function requireProduct({
  request,
  context,
  params,
}: LoaderFunctionArgs) {
  const tenant = requireSchool(context);
  const product = await getProduct(
    context.db,
    tenant.id,
    params.productId ?? ""
  );
  if (!product) notFound();
  await requireUser(request, context, ["owner", "admin"]);
  return { tenant, product };
}

export async function loader(args: LoaderFunctionArgs) {
  const { tenant, product } = await requireProduct(args);
  const { request, context } = args;
  const locale = getLocale(request, context);
  const [prices, links, candidates, lowest, bumpCandidates] = await Promise.all(
    [
      listPrices(context.db, tenant.id, product.id),
      listLinkedIds(context.db, tenant.id, product.id),
      listLinkCandidates(context.db, tenant.id, product.kind),
      lowestPriceLast30Days(context.db, tenant.id, product.id),
      listBumpCandidates(context.db, tenant.id, product.id),
    ]
  );
  const t = getT(request, context);
  return {
    title: `${product.title} · ${t("products.title")} · ${tenant.name}`,
    product: {
      id: product.id,
      kind: product.kind,
      title: product.title,
      published: product.published,
      hidden: product.hidden,
      updatedAt: product.updatedAt,
    },
    values: productFormValues(product, prices, links, locale),
    cover: {
      path: product.coverPath,
      url: product.coverPath
        ? mediaUrl(context.cloudflare.env, request, product.coverPath)
        : null,
    },
    candidates: candidates.filter((c) => c.id !== product.id),
    currency: tenant.currency,
    lowest,
    defaultTimezone: tenant.language === "pl" ? "Europe/Warsaw" : "UTC",
    bump: {
      candidates: bumpCandidates,
      values: {
        bumpProductId: product.bumpProductId ?? "",
        bumpPrice: formatMoneyInput(product.bumpPrice, locale),
        bumpText: product.bumpText,
      },
    },
  };
}

export async function action(args: ActionFunctionArgs) {
  const { tenant, product } = await requireProduct(args);
  const { request, context } = args;
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return formError({ form: { key: "validation.invalid" } });
  }
  const input = productFormInput(form);
  const intent = IntentSchema.safeParse(input);
  if (!intent.success)
    return formError({ form: { key: "validation.invalid" } });
  const back = (done: (typeof DONE)[number], id = product.id) =>
    redirect(`/home/products/${id}?done=${done}`);

  switch (intent.data.intent) {
    case "publish":
    case "unpublish":
      await setPublished(
        context.db,
        tenant.id,
        product.id,
        intent.data.intent === "publish"
      );
      return back(
        intent.data.intent === "publish" ? "published" : "unpublished"
      );
    case "duplicate": {
      const t = getT(request, context);
      const copy = await duplicateProduct(
        context.db,
        tenant.id,
        product.id,
        t("products.copy_title", { title: product.title }).slice(0, 120)
      );
      if (!copy) notFound();
      return back("duplicated", copy.id);
    }
    case "delete": {
      const parsed = parseWith(DeleteSchema, input);
      if (!parsed.ok) return formError(parsed.errors, { intent: "delete" });
      // A file product's stored files are removed on its files page first (they live in R2).
      if ((await countFilesByProduct(context.db, tenant.id)).get(product.id))
        return formError(
          { confirm: { key: "products.error.has_files" } },
          { intent: "delete" },
          409
        );
      await deleteProduct(context.db, tenant.id, product.id);
      return redirect(
        `${
          product.kind === "course" ? "/home/courses" : "/home/products"
        }?deleted=1`
      );
    }
    case "bump": {
      // Order bump (issue 8): checked here and in the model (the school's own published product).
      const parsed = parseWith(BumpSchema, input);
      if (!parsed.ok)
        return formError(parsed.errors, { ...parsed.values, intent: "bump" });
      const saved = await setProductBump(
        context.db,
        tenant.id,
        product.id,
        parsed.data
      );
      const echo = {
        intent: "bump",
        bumpProductId: parsed.data.bumpProductId ?? "",
        bumpPrice: String(input.bumpPrice ?? ""),
        bumpText: parsed.data.bumpText,
      };
      if (saved === "invalid_product")
        return formError(
          { bumpProductId: { key: "products.error.bump_product" } },
          echo,
          422
        );
      if (saved === "price_required")
        return formError(
          { bumpPrice: { key: "validation.required" } },
          echo,
          422
        );
      if (saved === "not_found") notFound();
      return back("bump_saved");
    }
  }

  const echo = (values: FormValues) => ({
    ...values,
    intent: "save",
    links: Array.isArray(input.links) ? input.links.join(",") : "",
  });
  const parsed = parseWith(productSchema(product.kind), input);
  const extras = parseWith(SaveExtras, input);
  if (!parsed.ok || !extras.ok) {
    const errors = {
      ...(extras.ok ? {} : extras.errors),
      ...(parsed.ok ? {} : parsed.errors),
    };
    return formError(
      errors,
      echo(parsed.ok ? (extras.ok ? {} : extras.values) : parsed.values)
    );
  }
  const strings = echo(
    Object.fromEntries(
      Object.entries(input).filter(([, v]) => typeof v === "string")
    ) as FormValues
  );
  const { coverPath, slug } = extras.data;
  if (coverPath !== product.coverPath && coverPath !== null) {
    const object = await getTenantMediaObject(context.db, tenant.id, coverPath);
    if (!object || object.status !== "ready" || object.context !== "cover")
      return formError(
        { coverPath: { key: "products.error.cover" } },
        strings,
        422
      );
  }
  if (slug !== product.slug) {
    const result = await setProductSlug(
      context.db,
      tenant.id,
      product.id,
      slug
    );
    if (result === "taken")
      return formError(
        { slug: { key: "validation.slug_taken" } },
        strings,
        409
      );
    if (result !== "ok")
      return formError(
        { slug: { key: "products.error.slug_format" } },
        strings
      );
  }
  const { fields, prices, links } = parsed.data;
  const saved = await saveCatalogue(context.db, tenant.id, product, {
    fields: { ...fields, coverPath },
    prices,
    links,
  });
  if (saved === "invalid_links")
    return formError(
      { links: { key: "products.error.links_invalid" } },
      strings,
      422
    );
  if (saved === "not_found") notFound();
  return back("saved");
}

export default function ProductPage() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const t = useT();
  const locale = useLocale();
  const message = useFieldMessage();
  const busy = useNavigation().state === "submitting";
  const { product } = loaderData;
  const errors = (actionData?.errors ?? {}) as FieldErrors;
  const sent = (actionData?.values ?? {}) as FormValues;
  const saving = sent.intent === "save";
  const values = saving ? sent : loaderData.values;
  const done = params.get("created")
    ? "created"
    : DONE.find((d) => d === params.get("done"));
  const formErrors = saving ? errors : {};
  return (
    <div className="space-y-6">
      <InstructorNav />
      <Link
        to={product.kind === "course" ? "/home/courses" : "/home/products"}
        className="text-sm font-medium text-brand-700 hover:underline"
      >
        ←{" "}
        {t(
          product.kind === "course"
            ? "products.back_to_courses"
            : "products.back_to_list"
        )}
      </Link>
      <PageTitle subtitle={t(`products.kind.${product.kind}`)}>
        {product.title}
      </PageTitle>
      {done && !actionData ? (
        <Alert tone="success">{t(`products.done.${done}`)}</Alert>
      ) : null}
      {errors.form ? <Alert>{message(errors.form)}</Alert> : null}
      {saving && Object.keys(errors).length ? (
        <Alert>{t("products.error.fix_fields")}</Alert>
      ) : null}

      <Card className="flex flex-wrap items-center gap-3">
        <ProductStatus published={product.published} hidden={product.hidden} />
        <Form method="post">
          <input
            type="hidden"
            name="intent"
            value={product.published ? "unpublish" : "publish"}
          />
          <Button
            type="submit"
            variant={product.published ? "secondary" : "primary"}
            disabled={busy}
          >
            {t(product.published ? "products.unpublish" : "products.publish")}
          </Button>
        </Form>
        <Form method="post">
          <input type="hidden" name="intent" value="duplicate" />
          <Button type="submit" variant="secondary" disabled={busy}>
            {t("products.duplicate")}
          </Button>
        </Form>
        {product.kind === "course" ? (
          <Link
            to={`/home/courses/${product.id}/sections`}
            className="text-sm font-semibold text-brand-700 hover:underline"
          >
            {t("products.curriculum")}
          </Link>
        ) : null}
        {product.kind === "file" ? (
          <Link
            to={`/home/files/${product.id}`}
            className="text-sm font-semibold text-brand-700 hover:underline"
          >
            {t("products.file_page")}
          </Link>
        ) : null}
        {loaderData.lowest !== null ? (
          <span className="text-sm text-slate-600" data-lowest-price>
            {t("products.lowest_30_days", {
              price: formatMoney(
                loaderData.lowest,
                loaderData.currency,
                locale
              ),
            })}
          </span>
        ) : null}
      </Card>

      <Form
        method="post"
        className="space-y-6"
        noValidate
        key={product.updatedAt}
      >
        <input type="hidden" name="intent" value="save" />
        <Card className="space-y-4" data-product-section="details">
          <h2 className="text-lg font-semibold">
            {t("products.section.details")}
          </h2>
          <ProductDetailsFields values={values} errors={formErrors} withSlug />
          <ImageUpload
            context="cover"
            name="coverPath"
            label={t("products.field.cover")}
            hint={t("products.field.cover_hint")}
            path={loaderData.cover.path}
            url={loaderData.cover.url}
            error={message(formErrors.coverPath)}
            shape="wide"
          />
        </Card>
        <ProductPricingSection
          values={values}
          errors={formErrors}
          currency={loaderData.currency}
        />
        <ProductPromotionSection values={values} errors={formErrors} />
        <ProductAccessSection values={values} errors={formErrors} />
        <ProductKindSection
          kind={product.kind}
          values={values}
          errors={formErrors}
          candidates={loaderData.candidates}
          defaultTimezone={loaderData.defaultTimezone}
        />
        <ProductSeoSection values={values} errors={formErrors} />
        <Button type="submit" disabled={busy}>
          {t("products.save")}
        </Button>
      </Form>

      <BumpSection
        candidates={loaderData.bump.candidates}
        values={sent.intent === "bump" ? sent : loaderData.bump.values}
        errors={sent.intent === "bump" ? errors : {}}
        currency={loaderData.currency}
        busy={busy}
      />

      <Card className="space-y-3 border-red-200">
        <h2 className="text-lg font-semibold text-red-800">
          {t("products.delete.title")}
        </h2>
        <p className="text-sm text-slate-600">{t("products.delete.intro")}</p>
        <Form
          method="post"
          className="flex flex-wrap items-start gap-3"
          noValidate
        >
          <input type="hidden" name="intent" value="delete" />
          <Field
            className="min-w-48"
            label={t("products.delete.confirm")}
            name="confirm"
            autoComplete="off"
            error={sent.intent === "delete" ? errors.confirm : undefined}
          />
          <Button
            type="submit"
            variant="danger"
            className="mt-6"
            disabled={busy}
          >
            {t("products.delete.button")}
          </Button>
        </Form>
      </Card>
    </div>
  );
}

/** The order bump: one more product ticked on the checkout, at an offer price, with a short pitch. */
function BumpSection({
  candidates,
  values,
  errors,
  currency,
  busy,
}: {
  candidates: Array<{ id: string; title: string }>;
  values: FormValues;
  errors: FieldErrors;
  currency: string;
  busy: boolean;
}) {
  const t = useT();
  return (
    <Card className="space-y-4" data-product-section="bump">
      <h2 className="text-lg font-semibold">{t("products.bump.title")}</h2>
      <p className="text-sm text-slate-600">{t("products.bump.intro")}</p>
      <Form method="post" className="space-y-4" noValidate>
        <input type="hidden" name="intent" value="bump" />
        <SelectField
          label={t("products.bump.product")}
          name="bumpProductId"
          defaultValue={values.bumpProductId ?? ""}
          error={errors.bumpProductId}
          options={[
            { value: "", label: t("products.bump.none") },
            ...candidates.map((c) => ({ value: c.id, label: c.title })),
          ]}
        />
        <Field
          label={t("products.bump.price", { currency })}
          name="bumpPrice"
          inputMode="decimal"
          defaultValue={values.bumpPrice}
          error={errors.bumpPrice}
        />
        <TextAreaField
          label={t("products.bump.text")}
          name="bumpText"
          rows={2}
          maxLength={BUMP_TEXT_MAX}
          defaultValue={values.bumpText}
          error={errors.bumpText}
          hint={t("products.bump.text_hint")}
        />
        <Button type="submit" variant="secondary" disabled={busy}>
          {t("products.bump.save")}
        </Button>
      </Form>
    </Card>
  );
}
