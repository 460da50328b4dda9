import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData, useSearchParams } from "@remix-run/react";
import { z } from "zod";
import { Alert, Button, Card, PageTitle } from "#app/components/ui.tsx";
import { InstructorNav } from "#app/components/instructor-nav.tsx";
import { listLeads } from "#app/models/lead.server.ts";
import { requireUser } from "#app/auth/auth.server.ts";
import { formatDate } from "#app/utils/dates.ts";
import { useLocale, useT } from "#app/utils/i18n-react.ts";
import { getT, requireSchool } from "#app/utils/request.server.ts";
import { Pager } from "#app/components/pager.tsx";

const ListQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1).default(1),
});

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.title },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const tenant = requireSchool(context);
  await requireUser(request, context, ["owner", "admin"]);
  const query = ListQuery.parse({
    page: new URL(request.url).searchParams.get("page") ?? undefined,
  });
  const list = await listLeads(context.db, tenant.id, { page: query.page });
  return {
    title: `${getT(request, context)("students.leads.title")} · ${tenant.name}`,
    ...list,
  };
}

export default function LeadsPage() {
  const data = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const t = useT();
  const locale = useLocale();
  return (
    <div className="space-y-6">
      <InstructorNav />
      <PageTitle subtitle={t("students.leads.intro")}>
        {t("students.leads.title")}
      </PageTitle>
      {params.get("error") === "export_limit" ? (
        <Alert>{t("students.error.export_limit")}</Alert>
      ) : null}
      <Card className="space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-slate-600" data-lead-total>
            {t("students.leads.count", { count: data.total })}
          </p>
          {/* A real form post: the answer is a file download (or a redirect back with the limit message). */}
          <Form method="post" action="/home/leads/export" reloadDocument>
            <Button type="submit" variant="secondary" data-export>
              {t("students.export")}
            </Button>
          </Form>
        </div>
        {data.leads.length === 0 ? (
          <p className="text-slate-600">{t("students.leads.empty")}</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="min-w-full text-left text-sm" data-leads>
              <thead className="text-slate-500">
                <tr>
                  <th scope="col" className="py-2 pr-4">
                    {t("students.list.email")}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t("students.list.name")}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t("students.leads.source")}
                  </th>
                  <th scope="col" className="py-2">
                    {t("students.leads.created")}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {data.leads.map((l) => (
                  <tr key={l.id} data-lead-email={l.email}>
                    <td className="py-2 pr-4">{l.email}</td>
                    <td className="py-2 pr-4">{l.name || "—"}</td>
                    <td className="py-2 pr-4">{l.source || "—"}</td>
                    <td className="py-2">{formatDate(l.createdAt, locale)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager
          page={data.page}
          pageCount={data.pageCount}
          href={(p) => `?page=${p}`}
        />
      </Card>
    </div>
  );
}
