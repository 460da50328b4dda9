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
  useRevalidator,
  useSearchParams,
} from "@remix-run/react";
import { useCallback, useId } from "react";
import { z } from "zod";
import { FileUpload, useFileSize } from "#app/components/file-upload.tsx";
import {
  Alert,
  Button,
  Card,
  cx,
  Field,
  PageTitle,
} from "#app/components/ui.tsx";
import { InstructorNav } from "#app/components/instructor-nav.tsx";
import { filesService } from "#app/media/files-service.server.ts";
import { mediaOrigins } from "#app/media/origins.server.ts";
import {
  grantProductAccess,
  listProductAccess,
  revokeProductAccess,
} from "#app/models/access.server.ts";
import {
  getProductFile,
  listProductFiles,
  removeProductFile,
} from "#app/models/product-file.server.ts";
import { getProduct, updateProduct } from "#app/models/product.server.ts";
import { getUserByEmail } from "#app/models/user.server.ts";
import { requireUser } from "#app/auth/auth.server.ts";
import { formatDate } from "#app/utils/dates.ts";
import { useFieldMessage, useLocale, useT } from "#app/utils/i18n-react.ts";
import { getT, notFound, requireSchool } from "#app/utils/request.server.ts";
import { formError } from "#app/utils/responses.server.ts";
import {
  email,
  msg,
  parseForm,
  text,
  type FieldErrors,
} from "#app/utils/validation.ts";

const TITLE_MAX = 120;
const DESCRIPTION_MAX = 5000;
const REASON_MAX = 255;

/** Optional one-line text: trimmed, '' → null, no control characters. */
const optionalLine = (max: number) =>
  z
    .string()
    .optional()
    .transform((s) => (s ?? "").trim())
    .pipe(
      z
        .string()
        .max(max)
        .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), {
          message: msg("validation.invalid"),
        })
    )
    .transform((s) => s || null);

const id = z.string().min(1).max(64);
const ActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("update"),
    title: text({ max: TITLE_MAX }),
    // Multi-line: new lines and tabs allowed, other control characters not.
    description: z
      .string()
      .optional()
      .transform((s) => (s ?? "").replace(/\r\n/g, "\n").trim())
      .pipe(
        z
          .string()
          .max(DESCRIPTION_MAX)
          .refine((s) => !/[\u0000-\u0008\u000b-\u001f\u007f]/.test(s), {
            message: msg("validation.invalid"),
          })
      ),
    published: z.literal("on").optional(),
  }),
  z.object({ intent: z.literal("remove_file"), fileId: id }),
  z.object({
    intent: z.literal("grant"),
    email: email(),
    reason: optionalLine(REASON_MAX),
  }),
  z.object({
    intent: z.literal("revoke"),
    userId: id,
    reason: optionalLine(REASON_MAX),
  }),
]);

const DONE = [
  "created",
  "saved",
  "file_removed",
  "granted",
  "revoked",
] as const;

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.title },
];

/** The product is looked up in this school first: another school's id is 404 for everyone. */
async function requireFileProduct({
  request,
  context,
  params,
}: LoaderFunctionArgs) {
  const tenant = requireSchool(context);
  const product = await getProduct(
    context.db,
    tenant.id,
    params.productId ?? "",
    "file"
  );
  if (!product) notFound();
  const user = await requireUser(request, context, ["owner", "admin"]);
  return { tenant, product, user };
}

export async function loader(args: LoaderFunctionArgs) {
  const { tenant, product } = await requireFileProduct(args);
  const { request, context } = args;
  const [files, access] = await Promise.all([
    listProductFiles(context.db, tenant.id, product.id),
    listProductAccess(context.db, tenant.id, product.id),
  ]);
  return {
    title: `${product.title} · ${getT(request, context)("files.title")} · ${
      tenant.name
    }`,
    product: {
      id: product.id,
      title: product.title,
      description: product.description,
      published: product.published,
    },
    files: files.map((f) => ({
      id: f.id,
      filename: f.filename,
      size: f.size,
      kind: f.kind,
    })),
    access: access.map((a) => ({
      userId: a.userId,
      name: a.name,
      email: a.email,
      source: a.source,
      reason: a.reason,
      status: a.status,
      startsAt: a.startsAt,
      expiresAt: a.expiresAt,
      revokedAt: a.revokedAt,
      revokedReason: a.revokedReason,
    })),
  };
}

export async function action(args: ActionFunctionArgs) {
  const { tenant, product, user } = await requireFileProduct(args);
  const { request, context } = args;
  const parsed = await parseForm(ActionSchema, request);
  if (!parsed.ok) return formError(parsed.errors, parsed.values);
  const data = parsed.data;
  const back = (done: (typeof DONE)[number]) =>
    redirect(`/home/files/${product.id}?done=${done}`);

  if (data.intent === "update") {
    await updateProduct(context.db, tenant.id, product.id, {
      title: data.title,
      description: data.description,
      published: data.published === "on",
    });
    return back("saved");
  }
  if (data.intent === "remove_file") {
    const file = await getProductFile(
      context.db,
      tenant.id,
      product.id,
      data.fileId
    );
    if (!file) notFound();
    // The stored object goes first (its row's delete removes the product_files row too).
    const removed = await filesService(
      context.cloudflare.env,
      tenant.id,
      mediaOrigins(context.cloudflare.env, request)
    ).remove(file.key, "file_product");
    if (!removed.ok && removed.status !== 404)
      return formError(
        { form: { key: removed.error } },
        { intent: data.intent },
        502
      );
    await removeProductFile(context.db, tenant.id, product.id, file.id);
    return back("file_removed");
  }
  if (data.intent === "grant") {
    const values = {
      intent: data.intent,
      email: data.email,
      reason: data.reason ?? "",
    };
    const student = await getUserByEmail(context.db, tenant.id, data.email);
    if (!student)
      return formError(
        { email: { key: "files.access.unknown_email" } },
        values,
        404
      );
    if (student.role !== "student")
      return formError({ email: { key: "files.access.staff" } }, values, 409);
    const result = await grantProductAccess(context.db, tenant.id, {
      productId: product.id,
      userId: student.id,
      source: "manual",
      reason: data.reason,
      grantedBy: user.id,
    });
    if (result === "already")
      return formError({ email: { key: "files.access.already" } }, values, 409);
    if (result === "not_found") notFound();
    return back("granted");
  }
  if (
    !(await revokeProductAccess(
      context.db,
      tenant.id,
      product.id,
      data.userId,
      data.reason
    ))
  ) {
    return formError(
      { form: { key: "files.access.not_active" } },
      { intent: data.intent },
      404
    );
  }
  return back("revoked");
}

function FilesList({
  productId,
  files,
}: {
  productId: string;
  files: ReturnType<typeof useLoaderData<typeof loader>>["files"];
}) {
  const t = useT();
  const size = useFileSize();
  const busy = useNavigation().state !== "idle";
  if (files.length === 0)
    return <p className="text-slate-600">{t("files.files.empty")}</p>;
  return (
    <ul className="divide-y divide-slate-100" data-product-files>
      {files.map((f) => {
        const href = `/files/${productId}/${f.id}`;
        return (
          <li
            key={f.id}
            className="flex flex-wrap items-center justify-between gap-3 py-3"
            data-file-name={f.filename}
          >
            <div className="min-w-0">
              <p className="truncate font-medium">{f.filename}</p>
              <p className="text-sm text-slate-500">
                {size(f.size)} · {f.kind.toUpperCase()}
              </p>
            </div>
            <div className="flex flex-wrap items-center gap-3">
              {/* Plain links: the answer is a redirect to a signed URL on the media host. */}
              {f.kind !== "zip" ? (
                <a
                  href={`${href}?mode=open`}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="text-sm font-semibold text-brand-700 hover:underline"
                >
                  {t("files.file.open")}
                </a>
              ) : null}
              <a
                href={href}
                className="text-sm font-semibold text-brand-700 hover:underline"
                data-download
              >
                {t("files.file.download")}
              </a>
              <Form method="post">
                <input type="hidden" name="intent" value="remove_file" />
                <input type="hidden" name="fileId" value={f.id} />
                <Button
                  type="submit"
                  variant="secondary"
                  disabled={busy}
                  aria-label={t("files.file.remove_label", {
                    name: f.filename,
                  })}
                >
                  {t("files.file.remove")}
                </Button>
              </Form>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

function AccessList({
  access,
}: {
  access: ReturnType<typeof useLoaderData<typeof loader>>["access"];
}) {
  const t = useT();
  const locale = useLocale();
  const busy = useNavigation().state !== "idle";
  if (access.length === 0)
    return <p className="text-slate-600">{t("files.access.empty")}</p>;
  return (
    <ul className="divide-y divide-slate-100" data-access-list>
      {access.map((a) => (
        <li
          key={a.userId}
          className="flex flex-wrap items-center justify-between gap-3 py-3"
          data-access-email={a.email}
          data-access-status={a.status}
        >
          <div className="min-w-0">
            <p className="font-medium">
              {a.name}{" "}
              <span className="font-normal text-slate-500">({a.email})</span>
            </p>
            <p className="text-sm text-slate-500">
              <span
                className={cx(
                  "mr-2 rounded px-2 py-0.5 text-xs font-semibold",
                  a.status === "active"
                    ? "bg-emerald-100 text-emerald-800"
                    : "bg-slate-100 text-slate-700"
                )}
              >
                {t(`files.access.status.${a.status}`)}
              </span>
              {t(`files.access.source.${a.source}`)} ·{" "}
              {t("files.access.since", {
                date: formatDate(a.startsAt, locale),
              })}
              {a.expiresAt
                ? ` · ${t("files.access.until", {
                    date: formatDate(a.expiresAt, locale),
                  })}`
                : ""}
              {a.reason ? ` · ${a.reason}` : ""}
              {a.revokedAt
                ? ` · ${t("files.access.revoked_on", {
                    date: formatDate(a.revokedAt, locale),
                  })}${a.revokedReason ? `: ${a.revokedReason}` : ""}`
                : ""}
            </p>
          </div>
          {a.status !== "revoked" ? (
            <Form method="post" className="flex flex-wrap items-end gap-2">
              <input type="hidden" name="intent" value="revoke" />
              <input type="hidden" name="userId" value={a.userId} />
              <label className="text-xs text-slate-600">
                <span className="block">{t("files.access.revoke_reason")}</span>
                <input
                  name="reason"
                  maxLength={REASON_MAX}
                  autoComplete="off"
                  className="mt-1 w-44 rounded-md border border-slate-300 px-2 py-1.5 text-sm"
                />
              </label>
              <Button
                type="submit"
                variant="danger"
                disabled={busy}
                aria-label={t("files.access.revoke_label", { name: a.name })}
              >
                {t("files.access.revoke")}
              </Button>
            </Form>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

export default function FileProductPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const t = useT();
  const message = useFieldMessage();
  const revalidator = useRevalidator();
  const busy = useNavigation().state === "submitting";
  const descriptionId = useId();
  const done = DONE.find((d) => d === params.get("done"));
  const errors = (actionData?.errors ?? {}) as FieldErrors;
  const values = actionData?.values ?? {};
  const errorsOf = (intent: string) => (values.intent === intent ? errors : {});
  const onUploaded = useCallback(() => revalidator.revalidate(), [revalidator]);
  const { product } = data;

  return (
    <div className="space-y-6">
      <InstructorNav />
      <Link
        to="/home/files"
        className="text-sm font-medium text-brand-700 hover:underline"
      >
        ← {t("files.back_to_list")}
      </Link>
      <PageTitle>{product.title}</PageTitle>
      {done && !actionData ? (
        <Alert tone="success">{t(`files.done.${done}`)}</Alert>
      ) : null}
      {errors.form ? <Alert>{message(errors.form)}</Alert> : null}

      <Card>
        <h2 className="text-lg font-semibold">{t("files.details.title")}</h2>
        <Form
          method="post"
          className="mt-3 space-y-4"
          noValidate
          key={`${product.title}|${product.description}|${product.published}`}
        >
          <input type="hidden" name="intent" value="update" />
          <Field
            label={t("files.field.title")}
            name="title"
            defaultValue={
              values.intent === "update" ? values.title : product.title
            }
            maxLength={TITLE_MAX}
            required
            error={errorsOf("update").title}
          />
          <div className="space-y-1">
            <label
              htmlFor={descriptionId}
              className="block text-sm font-medium text-slate-700"
            >
              {t("files.field.description")}
            </label>
            <textarea
              id={descriptionId}
              name="description"
              rows={4}
              maxLength={DESCRIPTION_MAX}
              defaultValue={
                values.intent === "update"
                  ? values.description
                  : product.description
              }
              aria-invalid={errorsOf("update").description ? true : undefined}
              className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100"
            />
            {errorsOf("update").description ? (
              <p
                className="text-sm text-red-600"
                data-field-error="description"
              >
                {message(errorsOf("update").description)}
              </p>
            ) : null}
          </div>
          <label className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              name="published"
              defaultChecked={product.published}
              className="mt-1"
            />
            <span>
              <span className="font-medium">{t("files.field.published")}</span>
              <span className="block text-slate-500">
                {t("files.field.published_hint")}
              </span>
            </span>
          </label>
          <Button type="submit" disabled={busy}>
            {t("files.save")}
          </Button>
        </Form>
      </Card>

      <Card className="space-y-4">
        <h2 className="text-lg font-semibold">{t("files.files.title")}</h2>
        <FileUpload
          endpoint={`/home/files/${product.id}/uploads`}
          context="file_product"
          label={t("files.upload.label")}
          onUploaded={onUploaded}
        />
        <FilesList productId={product.id} files={data.files} />
      </Card>

      <Card className="space-y-4">
        <div>
          <h2 className="text-lg font-semibold">{t("files.access.title")}</h2>
          <p className="mt-1 text-sm text-slate-600">
            {t("files.access.intro")}
          </p>
        </div>
        <Form
          method="post"
          className="flex flex-wrap items-start gap-3"
          noValidate
          key={done === "granted" ? "granted" : "grant"}
        >
          <input type="hidden" name="intent" value="grant" />
          <Field
            className="min-w-64 flex-1"
            label={t("files.access.email")}
            name="email"
            type="email"
            autoComplete="off"
            maxLength={254}
            required
            defaultValue={values.intent === "grant" ? values.email : undefined}
            error={errorsOf("grant").email}
          />
          <Field
            className="min-w-48 flex-1"
            label={t("files.access.reason")}
            name="reason"
            maxLength={REASON_MAX}
            autoComplete="off"
            defaultValue={values.intent === "grant" ? values.reason : undefined}
            error={errorsOf("grant").reason}
          />
          <Button type="submit" className="mt-6" disabled={busy}>
            {t("files.access.grant")}
          </Button>
        </Form>
        <AccessList access={data.access} />
      </Card>
    </div>
  );
}
