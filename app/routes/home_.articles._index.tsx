import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { z } from "zod";
import { InstructorNav } from "#app/components/instructor-nav.tsx";
import { Alert, Card, PageTitle } from "#app/components/ui.tsx";
import {
  epochToZoned,
  listArticles,
  schoolTimeZone,
} from "#app/models/article.server.ts";
import { requireUser } from "#app/auth/auth.server.ts";
import { useT } from "#app/utils/i18n-react.ts";
import { getT, requireSchool } from "#app/utils/request.server.ts";
import { Pager } from "#app/components/pager.tsx";

// A page number from the query string; anything else is page 1.
const QuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});

const DONE = {
  created: "articles.created",
  deleted: "articles.deleted",
} as const;

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.pageTitle },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const tenant = requireSchool(context);
  await requireUser(request, context, ["owner", "admin"]);
  const { page } = QuerySchema.parse(
    Object.fromEntries(new URL(request.url).searchParams)
  );
  const list = await listArticles(context.db, tenant.id, { page });
  const zone = schoolTimeZone(tenant.language);
  const now = Date.now();
  return {
    pageTitle: `${getT(request, context)("articles.title")} · ${tenant.name}`,
    zone,
    total: list.total,
    page: list.page,
    pages: list.pages,
    articles: list.items.map((a) => {
      const when =
        a.publishedAt === null ? null : epochToZoned(a.publishedAt, zone);
      return {
        id: a.id,
        title: a.title,
        authorName: a.authorName,
        date: when ? `${when.date} ${when.time}` : null,
        status: !a.published
          ? ("draft" as const)
          : a.publishedAt !== null && a.publishedAt > now
          ? ("scheduled" as const)
          : ("published" as const),
      };
    }),
  };
}

export default function Articles() {
  const data = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const t = useT();
  const done = params.get("done");
  const doneKey = done && done in DONE ? DONE[done as keyof typeof DONE] : null;
  return (
    <div className="space-y-6">
      <InstructorNav />
      <div className="flex flex-wrap items-end justify-between gap-3">
        <PageTitle subtitle={t("articles.intro")}>
          {t("articles.title")}
        </PageTitle>
        <Link
          to="/home/articles/new"
          className="rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
        >
          {t("articles.new")}
        </Link>
      </div>
      {doneKey ? <Alert tone="success">{t(doneKey)}</Alert> : null}
      <Card>
        {data.articles.length === 0 ? (
          <p className="text-sm text-slate-600">{t("articles.empty")}</p>
        ) : (
          <>
            <p className="mb-3 text-sm text-slate-500">
              {t("articles.count", { count: data.total })}
            </p>
            <div className="overflow-x-auto">
              <table className="w-full text-left text-sm" data-articles>
                <thead className="border-b border-slate-200 text-slate-500">
                  <tr>
                    <th scope="col" className="py-2 pr-4 font-medium">
                      {t("articles.col.title")}
                    </th>
                    <th scope="col" className="py-2 pr-4 font-medium">
                      {t("articles.col.status")}
                    </th>
                    <th scope="col" className="py-2 pr-4 font-medium">
                      {t("articles.col.date")}
                    </th>
                    <th scope="col" className="py-2 font-medium">
                      {t("articles.col.author")}
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {data.articles.map((a) => (
                    <tr key={a.id} data-article-row={a.id}>
                      <td className="py-2 pr-4">
                        <Link
                          to={`/home/articles/${a.id}`}
                          className="font-medium text-brand-700 hover:underline"
                        >
                          {a.title}
                        </Link>
                      </td>
                      <td className="py-2 pr-4">
                        {t(`articles.status.${a.status}`)}
                      </td>
                      <td className="py-2 pr-4 tabular-nums">
                        {a.date ?? t("articles.no_date")}
                      </td>
                      <td className="py-2">{a.authorName}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
        <Pager
          page={data.page}
          pageCount={data.pages}
          href={(p) => `/home/articles?page=${p}`}
          className="mt-4"
        />
      </Card>
    </div>
  );
}
