// One webhook: its target, event and state, the delivery log (status, response code, duration,
// attempts, time; newest first, paged) and the owner's actions: send test event, redeliver a
// failed delivery, enable/disable, delete (typing DELETE). Another school's id is 404; every
// action redirects back (PRG) with its seed message.
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
} from "@remix-run/react";
import { z } from "zod";
import { InstructorNav } from "#app/components/instructor-nav.tsx";
import { Pager } from "#app/components/pager.tsx";
import {
  Alert,
  Button,
  Card,
  cx,
  Field,
  PageTitle,
} from "#app/components/ui.tsx";
import {
  deleteWebhook,
  getWebhook,
  listWebhookDeliveries,
  redeliverWebhookDelivery,
  scheduleTestDelivery,
  setWebhookEnabled,
} from "#app/models/webhook.server.ts";
import { requireUser } from "#app/auth/auth.server.ts";
import { formatDate, formatDateTime } from "#app/utils/dates.ts";
import { useFieldMessage, useLocale, useT } from "#app/utils/i18n-react.ts";
import { getT, notFound, requireSchool } from "#app/utils/request.server.ts";
import { formError } from "#app/utils/responses.server.ts";
import {
  formToObject,
  parseWith,
  type FieldErrors,
} from "#app/utils/validation.ts";
import {
  isCappedTarget,
  shownDelivery,
} from "#app/webhooks/delivery-outcome.ts";
import { deliveriesQueue } from "#app/webhooks/forms.server.ts";

const DONE = ["test", "redeliver", "enabled", "disabled"] as const;
const ListQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
});
const ActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("test") }),
  z.object({
    intent: z.literal("redeliver"),
    deliveryId: z.string().trim().min(1).max(64),
  }),
  z.object({ intent: z.literal("enable") }),
  z.object({ intent: z.literal("disable") }),
  z.object({ intent: z.literal("delete"), confirm: z.string().optional() }),
]);

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.title },
];

async function requireWebhook(
  context: LoaderFunctionArgs["context"],
  webhookId: string | undefined
) {
  const tenant = requireSchool(context);
  const webhook = await getWebhook(
    context.db,
    tenant.id,
    String(webhookId ?? "").slice(0, 64)
  );
  if (!webhook) notFound();
  return { tenant, webhook };
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  // Another school's id: 404 for everyone, before sign-in is asked for.
  const { tenant, webhook } = await requireWebhook(context, params.webhookId);
  await requireUser(request, context, ["owner", "admin"]);
  const url = new URL(request.url);
  const query = ListQuery.parse({ page: url.searchParams.get("page") ?? 1 });
  const log = await listWebhookDeliveries(context.db, tenant.id, webhook.id, {
    page: query.page,
  });
  const capped = isCappedTarget(webhook.url);
  return {
    title: `${webhook.url} · ${getT(request, context)("webhooks.title")}`,
    done: DONE.find((d) => d === url.searchParams.get("done")) ?? null,
    webhook: {
      id: webhook.id,
      event: webhook.event,
      url: webhook.url,
      enabled: webhook.enabled,
      secretHint: webhook.secretHint,
      createdAt: webhook.createdAt,
    },
    page: log.page,
    pageCount: log.pageCount,
    // Issue 19 §8: a private/loopback target (development only) shows an outcome class only; no
    // row ever shows the stored error text itself, only its catalogue message.
    deliveries: log.deliveries.map((d) =>
      shownDelivery(
        {
          id: d.id,
          eventId: d.eventId,
          eventType: d.eventType,
          isTest: d.isTest,
          status: d.status,
          attempts: d.attempts,
          lastStatusCode: d.lastStatusCode,
          lastDurationMs: d.lastDurationMs,
          lastError: d.lastError,
          time: d.deliveredAt ?? d.updatedAt,
        },
        capped
      )
    ),
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { tenant, webhook } = await requireWebhook(context, params.webhookId);
  await requireUser(request, context, ["owner", "admin"]);
  let input: Record<string, string>;
  try {
    input = formToObject(await request.formData());
  } catch {
    return formError({ form: { key: "validation.invalid" } }, {}, 400);
  }
  const parsed = parseWith(ActionSchema, input);
  if (!parsed.ok) return formError(parsed.errors, {}, 400);
  const back = (done: (typeof DONE)[number]) =>
    redirect(`/home/webhooks/${webhook.id}?done=${done}`, 303);
  switch (parsed.data.intent) {
    case "test":
      await scheduleTestDelivery(
        context.db,
        deliveriesQueue(context),
        tenant.id,
        webhook
      );
      throw back("test");
    case "redeliver": {
      const result = await redeliverWebhookDelivery(
        context.db,
        deliveriesQueue(context),
        tenant.id,
        webhook.id,
        parsed.data.deliveryId
      );
      if (!result.ok && result.reason === "not_found") notFound();
      if (!result.ok)
        return formError(
          { form: { key: "webhooks.error.not_redeliverable" } },
          {},
          409
        );
      throw back("redeliver");
    }
    case "enable":
    case "disable":
      await setWebhookEnabled(
        context.db,
        tenant.id,
        webhook.id,
        parsed.data.intent === "enable"
      );
      throw back(parsed.data.intent === "enable" ? "enabled" : "disabled");
    case "delete":
      if (parsed.data.confirm?.trim() !== "DELETE")
        return formError(
          { confirm: { key: "webhooks.error.confirm" } },
          {},
          422
        );
      await deleteWebhook(context.db, tenant.id, webhook.id);
      throw redirect("/home/webhooks?done=deleted", 303);
  }
}

type Delivery = ReturnType<
  typeof useLoaderData<typeof loader>
>["deliveries"][number];

/** What the log shows: a pending row with attempts is retrying; failed and dead (retries used up) are both "Failed". */
function statusOf(d: Delivery) {
  if (d.status === "pending") return d.attempts > 0 ? "retrying" : "pending";
  return d.status === "delivered" ? "delivered" : "failed";
}

const BADGE: Record<string, string> = {
  pending: "bg-slate-100 text-slate-700",
  retrying: "bg-amber-100 text-amber-800",
  delivered: "bg-emerald-100 text-emerald-800",
  failed: "bg-red-100 text-red-800",
};

export default function WebhookPage() {
  const data = useLoaderData<typeof loader>();
  const action = useActionData<{ errors: FieldErrors }>();
  const navigation = useNavigation();
  const t = useT();
  const field = useFieldMessage();
  const locale = useLocale();
  const busy = navigation.state !== "idle";
  const errors = action?.errors ?? {};
  const w = data.webhook;
  return (
    <div className="space-y-6">
      <InstructorNav />
      <p className="text-sm">
        <Link
          to="/home/webhooks"
          className="font-semibold text-brand-700 hover:underline"
        >
          ← {t("webhooks.back")}
        </Link>
      </p>
      <PageTitle
        subtitle={`${t(`webhooks.event.${w.event}`)} · ${t(
          "webhooks.secret.hint",
          { hint: w.secretHint }
        )} · ${t("webhooks.created_at", {
          date: formatDate(w.createdAt, locale),
        })}`}
      >
        <span className="break-all">{w.url}</span>
      </PageTitle>
      {data.done && !action ? (
        <Alert tone="success">{t(`webhooks.done.${data.done}`)}</Alert>
      ) : null}
      {errors.form ? <Alert>{field(errors.form)}</Alert> : null}
      <Card
        className="flex flex-wrap items-center gap-3"
        data-webhook-state={w.enabled ? "enabled" : "disabled"}
      >
        <span
          className={cx(
            "rounded px-2 py-0.5 text-xs font-semibold",
            w.enabled
              ? "bg-emerald-100 text-emerald-800"
              : "bg-slate-100 text-slate-600"
          )}
        >
          {w.enabled ? t("webhooks.enabled") : t("webhooks.disabled")}
        </span>
        <Form method="post">
          <input type="hidden" name="intent" value="test" />
          <Button type="submit" disabled={busy || !w.enabled} data-webhook-test>
            {t("webhooks.send_test")}
          </Button>
        </Form>
        <Form method="post">
          <input
            type="hidden"
            name="intent"
            value={w.enabled ? "disable" : "enable"}
          />
          <Button
            type="submit"
            variant="secondary"
            disabled={busy}
            data-webhook-toggle
          >
            {w.enabled ? t("webhooks.disable") : t("webhooks.enable")}
          </Button>
        </Form>
      </Card>
      <Card className="space-y-3">
        <h2 className="text-lg font-semibold">{t("webhooks.deliveries")}</h2>
        {data.deliveries.length === 0 ? (
          <p className="text-slate-600">{t("webhooks.deliveries.empty")}</p>
        ) : (
          <div className="overflow-x-auto">
            <table
              className="min-w-full text-left text-sm"
              data-webhook-deliveries
            >
              <thead className="text-slate-500">
                <tr>
                  {(
                    [
                      "status",
                      "event",
                      "code",
                      "duration",
                      "attempts",
                      "time",
                      "actions",
                    ] as const
                  ).map((c) => (
                    <th key={c} scope="col" className="py-2 pr-4">
                      {t(`webhooks.col.${c}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {data.deliveries.map((d) => {
                  const status = statusOf(d);
                  return (
                    <tr
                      key={d.id}
                      data-delivery-row={d.id}
                      data-delivery-status={status}
                    >
                      <td className="py-2 pr-4">
                        <span
                          className={cx(
                            "rounded px-2 py-0.5 text-xs font-semibold",
                            BADGE[status]
                          )}
                        >
                          {t(`webhooks.status.${status}`)}
                        </span>
                        {d.outcome && status !== "delivered" ? (
                          <span
                            className="mt-1 block max-w-xs text-xs text-slate-600"
                            data-delivery-outcome
                          >
                            {t(d.outcome.key, { code: d.outcome.code ?? "" })}
                          </span>
                        ) : null}
                      </td>
                      <td className="py-2 pr-4">
                        {t(`webhooks.event.${d.eventType}`)}
                        {d.isTest ? (
                          <span className="ml-1 rounded bg-sky-100 px-1 text-xs text-sky-800">
                            {t("webhooks.test_event")}
                          </span>
                        ) : null}
                      </td>
                      <td className="py-2 pr-4 font-mono" data-delivery-code>
                        {d.lastStatusCode ?? "—"}
                      </td>
                      <td className="py-2 pr-4">
                        {d.lastDurationMs === null
                          ? "—"
                          : t("webhooks.duration_ms", { ms: d.lastDurationMs })}
                      </td>
                      <td className="py-2 pr-4" data-delivery-attempts>
                        {d.attempts}
                      </td>
                      <td className="whitespace-nowrap py-2 pr-4">
                        {formatDateTime(d.time)}
                      </td>
                      <td className="py-2 pr-4">
                        {status === "failed" ? (
                          <Form method="post">
                            <input
                              type="hidden"
                              name="intent"
                              value="redeliver"
                            />
                            <input
                              type="hidden"
                              name="deliveryId"
                              value={d.id}
                            />
                            <Button
                              type="submit"
                              variant="secondary"
                              className="px-2 py-1 text-xs"
                              disabled={busy}
                              data-delivery-redeliver
                            >
                              {t("webhooks.redeliver")}
                            </Button>
                          </Form>
                        ) : null}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        <Pager
          page={data.page}
          pageCount={data.pageCount}
          href={(page) => `/home/webhooks/${w.id}?page=${page}`}
        />
      </Card>
      <Card>
        <Form
          method="post"
          className="flex flex-col gap-3 sm:flex-row sm:items-end"
          data-webhook-delete-form
        >
          <input type="hidden" name="intent" value="delete" />
          <Field
            label={t("webhooks.delete_confirm")}
            name="confirm"
            autoComplete="off"
            error={errors.confirm}
            className="flex-1"
          />
          <Button
            type="submit"
            variant="danger"
            disabled={busy}
            data-webhook-delete
          >
            {t("webhooks.delete")}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
