import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import {
  Link,
  useLoaderData,
  useRevalidator,
  useSearchParams,
} from "@remix-run/react";
import { useEffect } from "react";
import { Alert, Card, PageTitle } from "#app/components/ui.tsx";
import { InstructorNav } from "#app/components/instructor-nav.tsx";
import { VideoUpload } from "#app/components/video-upload.tsx";
import { refreshStaleVideos } from "#app/media/video-view.server.ts";
import { formatLength, isSettled } from "#app/media/video-view.ts";
import { VideoStateBadge } from "#app/components/video-state.tsx";
import { listVideos } from "#app/models/video.server.ts";
import { requireUser } from "#app/auth/auth.server.ts";
import { formatDate } from "#app/utils/dates.ts";
import { useLocale, useT } from "#app/utils/i18n-react.ts";
import { getT, requireSchool } from "#app/utils/request.server.ts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.title },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const tenant = requireSchool(context);
  await requireUser(request, context, ["owner", "admin"]);
  let videos = await listVideos(context.db, tenant.id);
  // Webhooks can be late or lost: a few unsettled videos are read from Bunny on each view.
  if (await refreshStaleVideos(context, tenant.id, videos))
    videos = await listVideos(context.db, tenant.id);
  return {
    title: `${getT(request, context)("videos.title")} · ${tenant.name}`,
    videos: videos.map((v) => ({
      id: v.id,
      title: v.title,
      state: v.state,
      size: v.size,
      lengthSeconds: v.lengthSeconds,
      createdAt: v.createdAt,
    })),
  };
}

export default function VideosPage() {
  const data = useLoaderData<typeof loader>();
  const t = useT();
  const locale = useLocale();
  const revalidator = useRevalidator();
  const [params] = useSearchParams();
  const size = new Intl.NumberFormat(locale, {
    style: "unit",
    unit: "megabyte",
    maximumFractionDigits: 1,
  });
  const unsettled = data.videos.some((v) => !isSettled(v.state));

  // While something is transcoding, the list follows it (the webhook updates D1; this reads it).
  useEffect(() => {
    if (!unsettled) return;
    const timer = setInterval(() => {
      if (
        revalidator.state === "idle" &&
        document.visibilityState === "visible"
      )
        revalidator.revalidate();
    }, 5000);
    return () => clearInterval(timer);
  }, [unsettled, revalidator]);

  return (
    <div className="space-y-6">
      <InstructorNav />
      <Link
        to="/home"
        className="text-sm font-medium text-brand-700 hover:underline"
      >
        ← {t("home.title")}
      </Link>
      <PageTitle subtitle={t("videos.intro")}>{t("videos.title")}</PageTitle>
      {params.get("deleted") ? (
        <Alert tone="success">{t("videos.deleted")}</Alert>
      ) : null}
      <noscript>
        <Alert tone="info">{t("videos.upload.no_js")}</Alert>
      </noscript>
      <Card>
        <VideoUpload withTitle onUploaded={() => revalidator.revalidate()} />
      </Card>
      <Card>
        {data.videos.length === 0 ? (
          <p className="text-sm text-slate-600">{t("videos.empty")}</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm" data-video-list>
              <thead className="text-xs tracking-wide text-slate-500 uppercase">
                <tr>
                  <th className="py-2 pr-4">{t("videos.col.title")}</th>
                  <th className="py-2 pr-4">{t("videos.col.state")}</th>
                  <th className="py-2 pr-4">{t("videos.col.length")}</th>
                  <th className="py-2 pr-4">{t("videos.col.size")}</th>
                  <th className="py-2">{t("videos.col.added")}</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {data.videos.map((v) => (
                  <tr key={v.id} data-video-row={v.id}>
                    <td className="py-2 pr-4">
                      <Link
                        to={`/home/videos/${v.id}`}
                        className="font-medium text-brand-700 hover:underline"
                      >
                        {v.title}
                      </Link>
                    </td>
                    <td className="py-2 pr-4">
                      <VideoStateBadge state={v.state} />
                    </td>
                    <td className="py-2 pr-4 tabular-nums">
                      {formatLength(v.lengthSeconds)}
                    </td>
                    <td className="py-2 pr-4 tabular-nums">
                      {size.format(v.size / (1024 * 1024))}
                    </td>
                    <td className="py-2 text-slate-600">
                      {formatDate(v.createdAt, locale)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </div>
  );
}
