import {
  data,
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
import { useId } from "react";
import { z } from "zod";
import { Alert, Button, Card, Field, PageTitle } from "#app/components/ui.tsx";
import { InstructorNav } from "#app/components/instructor-nav.tsx";
import {
  addStudent,
  importStudents,
  IMPORT_MAX,
  listStudents,
  NAME_MAX,
  parseImport,
  sendInvitations,
  type ImportLineError,
} from "#app/models/student.server.ts";
import { requireUser } from "#app/auth/auth.server.ts";
import { formatDate } from "#app/utils/dates.ts";
import { useFieldMessage, useLocale, useT } from "#app/utils/i18n-react.ts";
import { getT, requireSchool } from "#app/utils/request.server.ts";
import { formError } from "#app/utils/responses.server.ts";
import {
  email,
  parseForm,
  text,
  type FieldErrors,
} from "#app/utils/validation.ts";
import { Pager } from "#app/components/pager.tsx";
import { schoolEmailOrigin } from "#app/models/school-address.server.ts";

const SEARCH_MAX = 100;
// 50 addresses of at most 254 characters, with line ends and some slack for blank lines.
const IMPORT_TEXT_MAX = 20_000;

const ListQuery = z.object({
  q: z.string().max(SEARCH_MAX).catch("").default(""),
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1).default(1),
});

const ActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("add"),
    name: text({ max: NAME_MAX }),
    email: email(),
  }),
  z.object({
    intent: z.literal("import"),
    emails: z.string().max(IMPORT_TEXT_MAX),
  }),
]);

const DONE = ["added"] as const;
const ERRORS = ["export_limit"] as const;

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.title },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const tenant = requireSchool(context);
  await requireUser(request, context, ["owner", "admin"]);
  const url = new URL(request.url);
  const query = ListQuery.parse({
    q: url.searchParams.get("q") ?? undefined,
    page: url.searchParams.get("page") ?? undefined,
  });
  const list = await listStudents(context.db, tenant.id, {
    search: query.q,
    page: query.page,
  });
  // Limits travel as data: the component must not import the server model.
  return {
    title: `${getT(request, context)("students.title")} · ${tenant.name}`,
    search: query.q.trim(),
    ...list,
    limits: { name: NAME_MAX, import: IMPORT_MAX },
  };
}

type ImportReport = {
  created: string[];
  existing: string[];
  duplicates: string[];
};
type ActionData = {
  errors?: FieldErrors;
  values?: Record<string, string>;
  invalid?: ImportLineError[];
  report?: ImportReport;
};

export async function action({ request, context }: ActionFunctionArgs) {
  const tenant = requireSchool(context);
  await requireUser(request, context, ["owner", "admin"]);
  const parsed = await parseForm(ActionSchema, request);
  if (!parsed.ok) return formError(parsed.errors, parsed.values);
  const input = parsed.data;
  // E-mailed links use the school's configured address, never this request's Host (issue 19 §6).
  const origin = await schoolEmailOrigin(context);

  if (input.intent === "add") {
    const student = await addStudent(context.db, tenant.id, {
      name: input.name,
      email: input.email,
    });
    if (!student)
      return formError(
        { email: { key: "students.add.exists" } },
        { intent: "add", name: input.name, email: input.email },
        409
      );
    await sendInvitations(
      context.db,
      context.cloudflare.env.MAIL_QUEUE,
      tenant,
      origin,
      [student]
    );
    return redirect(`/home/students/${student.id}?done=added`);
  }

  const values = { intent: "import", emails: input.emails };
  const lines = parseImport(input.emails);
  if (!lines.ok) {
    if (lines.reason === "empty")
      return formError({ emails: { key: "validation.required" } }, values);
    if (lines.reason === "too_many")
      return formError(
        {
          emails: {
            key: "students.import.over_limit",
            values: { max: IMPORT_MAX, count: lines.count },
          },
        },
        values
      );
    return data<ActionData>(
      {
        errors: { emails: { key: "students.import.invalid" } },
        values,
        invalid: lines.invalid,
      },
      { status: 400 }
    );
  }
  const result = await importStudents(context.db, tenant.id, lines.emails);
  await sendInvitations(
    context.db,
    context.cloudflare.env.MAIL_QUEUE,
    tenant,
    origin,
    result.created
  );
  return data<ActionData>({
    report: {
      created: result.created.map((s) => s.email),
      existing: result.existing,
      duplicates: result.duplicates,
    },
  });
}

function ImportResult({ report }: { report: ImportReport }) {
  const t = useT();
  return (
    <div className="space-y-2" data-import-report>
      <Alert tone="success">
        {t("students.import.created", { count: report.created.length })}
      </Alert>
      {report.existing.length ? (
        <Alert tone="info">
          {t("students.import.existing", { count: report.existing.length })}
          <ul className="mt-1 list-inside list-disc" data-import-existing>
            {report.existing.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        </Alert>
      ) : null}
      {report.duplicates.length ? (
        <Alert tone="info">
          {t("students.import.duplicates", { count: report.duplicates.length })}
          <ul className="mt-1 list-inside list-disc" data-import-duplicates>
            {report.duplicates.map((e, i) => (
              <li key={`${e}-${i}`}>{e}</li>
            ))}
          </ul>
        </Alert>
      ) : null}
    </div>
  );
}

export default function StudentsPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  const [params] = useSearchParams();
  const t = useT();
  const locale = useLocale();
  const message = useFieldMessage();
  const busy = useNavigation().state === "submitting";
  const importId = useId();
  const errors = actionData?.errors ?? {};
  const values = actionData?.values ?? {};
  const errorsOf = (intent: string) => (values.intent === intent ? errors : {});
  const done = DONE.find((d) => d === params.get("done"));
  const problem = ERRORS.find((e) => e === params.get("error"));
  const importError = errorsOf("import").emails;

  return (
    <div className="space-y-6">
      <InstructorNav />
      <PageTitle subtitle={t("students.intro")}>
        {t("students.title")}
      </PageTitle>
      {done && !actionData ? (
        <Alert tone="success">{t(`students.done.${done}`)}</Alert>
      ) : null}
      {problem && !actionData ? (
        <Alert>{t(`students.error.${problem}`)}</Alert>
      ) : null}
      {errors.form ? <Alert>{message(errors.form)}</Alert> : null}

      <Card className="space-y-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <Form
            method="get"
            className="flex flex-wrap items-end gap-2"
            role="search"
          >
            <Field
              className="min-w-64"
              label={t("students.search.label")}
              name="q"
              type="search"
              defaultValue={data.search}
              maxLength={SEARCH_MAX}
            />
            <Button type="submit" variant="secondary">
              {t("common.search")}
            </Button>
          </Form>
          {/* A real form post: the answer is a file download (or a redirect back with the limit message). */}
          <Form method="post" action="/home/students/export" reloadDocument>
            <Button type="submit" variant="secondary" data-export>
              {t("students.export")}
            </Button>
          </Form>
        </div>
        <p className="text-sm text-slate-600" data-student-total>
          {data.search
            ? t("students.found", { count: data.total })
            : t("students.count", { count: data.total })}
        </p>
        {data.students.length === 0 ? (
          <p className="text-slate-600">
            {data.search
              ? t("students.list.no_match")
              : t("students.list.empty")}
          </p>
        ) : (
          <div className="overflow-x-auto">
            <table className="min-w-full text-left text-sm" data-students>
              <thead className="text-slate-500">
                <tr>
                  <th scope="col" className="py-2 pr-4">
                    {t("students.list.name")}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t("students.list.email")}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t("students.list.products")}
                  </th>
                  <th scope="col" className="py-2">
                    {t("students.list.joined")}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {data.students.map((s) => (
                  <tr key={s.id} data-student-email={s.email}>
                    <td className="py-2 pr-4">
                      <Link
                        to={`/home/students/${s.id}`}
                        className="font-semibold text-brand-700 hover:underline"
                      >
                        {s.name || s.email}
                      </Link>
                    </td>
                    <td className="py-2 pr-4">{s.email}</td>
                    <td className="py-2 pr-4">
                      {t("students.products_count", {
                        count: s.activeProducts,
                      })}
                    </td>
                    <td className="py-2">{formatDate(s.createdAt, locale)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager
          page={data.page}
          pageCount={data.pageCount}
          href={(p) =>
            `?${new URLSearchParams({
              ...(data.search ? { q: data.search } : {}),
              page: String(p),
            })}`
          }
          className="mt-4"
        />
      </Card>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <h2 className="text-lg font-semibold">{t("students.add.title")}</h2>
          <p className="mt-1 text-sm text-slate-600">
            {t("students.add.intro")}
          </p>
          <Form
            method="post"
            className="mt-3 space-y-3"
            noValidate
            data-add-student
          >
            <input type="hidden" name="intent" value="add" />
            <Field
              label={t("students.field.name")}
              name="name"
              maxLength={data.limits.name}
              required
              autoComplete="off"
              defaultValue={values.intent === "add" ? values.name : undefined}
              error={errorsOf("add").name}
            />
            <Field
              label={t("students.field.email")}
              name="email"
              type="email"
              maxLength={254}
              required
              autoComplete="off"
              defaultValue={values.intent === "add" ? values.email : undefined}
              error={errorsOf("add").email}
            />
            <Button type="submit" disabled={busy}>
              {t("students.add.submit")}
            </Button>
          </Form>
        </Card>

        <Card>
          <h2 className="text-lg font-semibold">
            {t("students.import.title")}
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            {t("students.import.intro", { max: data.limits.import })}
          </p>
          {actionData?.report ? (
            <div className="mt-3">
              <ImportResult report={actionData.report} />
            </div>
          ) : null}
          <Form
            method="post"
            className="mt-3 space-y-3"
            noValidate
            data-import-students
          >
            <input type="hidden" name="intent" value="import" />
            <div className="space-y-1">
              <label
                htmlFor={importId}
                className="block text-sm font-medium text-slate-700"
              >
                {t("students.import.label")}
              </label>
              <textarea
                id={importId}
                name="emails"
                rows={8}
                maxLength={IMPORT_TEXT_MAX}
                defaultValue={
                  values.intent === "import" ? values.emails : undefined
                }
                aria-invalid={importError ? true : undefined}
                aria-describedby={importError ? `${importId}-error` : undefined}
                placeholder={"anna@example.com\npiotr@example.com"}
                className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100"
              />
              {importError ? (
                <div
                  id={`${importId}-error`}
                  className="text-sm text-red-600"
                  data-field-error="emails"
                >
                  <p>{message(importError)}</p>
                  {actionData?.invalid?.length ? (
                    <ul
                      className="mt-1 list-inside list-disc"
                      data-invalid-lines
                    >
                      {actionData.invalid.map((l) => (
                        <li key={l.line} data-invalid-line={l.line}>
                          {t("students.import.bad_line", {
                            line: l.line,
                            value: l.value,
                          })}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </div>
              ) : null}
            </div>
            <Button type="submit" disabled={busy}>
              {t("students.import.submit")}
            </Button>
          </Form>
        </Card>
      </div>
    </div>
  );
}
