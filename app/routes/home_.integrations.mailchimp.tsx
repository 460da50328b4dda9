// /home/integrations/mailchimp (issue 9 item 3; seed 001 §3 "Mailchimp needs an API key and a list
// id; the list needs an FNAME merge tag", §5 "a duplicate integration is rejected", §8
// 'Integration created/deleted'): connect the school's Mailchimp audience — the key, the audience
// and its FNAME merge tag are checked with Mailchimp (the local peer in development) before
// anything is written, then the key is sealed and only its last 4 characters are ever shown —
// choose whom to subscribe, see the latest subscriptions, disconnect after typing DELETE.
// Owners and admins only.
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
import { InstructorNav } from "#app/components/instructor-nav.tsx";
import {
  Alert,
  Button,
  Card,
  cx,
  Field,
  PageTitle,
} from "#app/components/ui.tsx";
import {
  dataCenterOf,
  keyHint,
  MailchimpError,
  mailchimpForEnv,
} from "#app/mailing/mailchimp.server.ts";
import { mailingSettings } from "#app/mailing/subscribe.server.ts";
import {
  createBusinessIntegration,
  deleteBusinessIntegration,
  DuplicateBusinessIntegrationError,
  integrationSettings,
  listBusinessIntegrations,
} from "#app/models/business-integration.server.ts";
import {
  deleteMailingMembersOfIntegration,
  listMailingMembers,
  updateMailingIntegrationSettings,
} from "#app/models/mailing-member.server.ts";
import { requireUser } from "#app/auth/auth.server.ts";
import { formatDate, formatDateTime } from "#app/utils/dates.ts";
import type { Env } from "#app/utils/env.server.ts";
import { useFieldMessage, useLocale, useT } from "#app/utils/i18n-react.ts";
import { getT, requireSchool } from "#app/utils/request.server.ts";
import { formError } from "#app/utils/responses.server.ts";
import {
  formToObject,
  msg,
  parseWith,
  type FieldErrors,
  type FormValues,
} from "#app/utils/validation.ts";

const DONE = {
  created: "mailing.done.created",
  deleted: "mailing.done.deleted",
  saved: "mailing.done.saved",
} as const;
const MEMBERS_SHOWN = 20;

const checkbox = z
  .string()
  .optional()
  .transform((v) => v === "on" || v === "true" || v === "1");

const IntentSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("connect"),
    apiKey: z
      .string()
      .transform((s) => s.trim())
      .pipe(
        z
          .string()
          .min(1)
          .max(100)
          .refine((k) => dataCenterOf(k) !== null, {
            message: msg("mailing.error.key_format"),
          })
      ),
    listId: z
      .string()
      .transform((s) => s.trim())
      .pipe(
        z
          .string()
          .min(1)
          .max(50)
          .regex(/^[A-Za-z0-9]+$/, {
            message: msg("mailing.error.list_format"),
          })
      ),
    subscribeBuyers: checkbox,
    subscribeLeads: checkbox,
  }),
  z.object({
    intent: z.literal("options"),
    subscribeBuyers: checkbox,
    subscribeLeads: checkbox,
  }),
  z.object({
    intent: z.literal("disconnect"),
    confirm: z.string().max(50).optional(),
  }),
]);

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.pageTitle },
];

async function mailingIntegration(
  context: LoaderFunctionArgs["context"],
  tenantId: string
) {
  return (await listBusinessIntegrations(context.db, tenantId)).find(
    (r) => r.kind === "mailing"
  );
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const tenant = requireSchool(context);
  await requireUser(request, context, ["owner", "admin"]);
  const integration = await mailingIntegration(context, tenant.id);
  const settings = integration
    ? mailingSettings(integrationSettings(integration))
    : null;
  const members = integration
    ? await listMailingMembers(
        context.db,
        tenant.id,
        integration.id,
        MEMBERS_SHOWN
      )
    : [];
  return {
    pageTitle: `${getT(request, context)("mailing.title")} · ${tenant.name}`,
    // Never the sealed key: its hint (last 4) was computed when it was saved.
    connected:
      integration && settings
        ? {
            id: integration.id,
            keyHint: integration.publicRef,
            listId: settings.listId,
            listName: settings.listName,
            subscribeBuyers: settings.subscribeBuyers,
            subscribeLeads: settings.subscribeLeads,
            enabled: integration.enabled,
            createdAt: integration.createdAt,
          }
        : null,
    members: members.map((m) => ({
      id: m.id,
      email: m.email,
      source: m.source,
      status: m.status,
      error: m.error,
      updatedAt: m.updatedAt,
    })),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const tenant = requireSchool(context);
  await requireUser(request, context, ["owner", "admin"]);
  let input: Record<string, string>;
  try {
    input = formToObject(await request.formData());
  } catch {
    return formError({ form: { key: "validation.invalid" } }, {}, 400);
  }
  // Echoed back so a refused form keeps what was typed, the key excepted.
  const echo: FormValues = Object.fromEntries(
    Object.entries(input)
      .filter(([k]) => k !== "apiKey")
      .map(([k, v]) => [k, v.slice(0, 100)])
  );
  const parsed = parseWith(IntentSchema, input);
  if (!parsed.ok) return formError(parsed.errors, echo, 422);
  const existing = await mailingIntegration(context, tenant.id);
  const data = parsed.data;

  if (data.intent === "disconnect") {
    if (!existing) throw redirect("/home/integrations/mailchimp", 303);
    if (data.confirm?.trim() !== "DELETE")
      return formError(
        { confirm: { key: "mailing.error.confirm_delete" } },
        { intent: "disconnect" },
        422
      );
    await deleteMailingMembersOfIntegration(context.db, tenant.id, existing.id);
    await deleteBusinessIntegration(context.db, tenant.id, existing.id);
    throw redirect("/home/integrations/mailchimp?done=deleted", 303);
  }

  if (data.intent === "options") {
    if (!existing) throw redirect("/home/integrations/mailchimp", 303);
    const settings = {
      ...mailingSettings(integrationSettings(existing)),
      subscribeBuyers: data.subscribeBuyers,
      subscribeLeads: data.subscribeLeads,
    };
    await updateMailingIntegrationSettings(
      context.db,
      tenant.id,
      existing.id,
      settings
    );
    throw redirect("/home/integrations/mailchimp?done=saved", 303);
  }

  const duplicate = { form: { key: "mailing.error.duplicate" } };
  // One mailing tool per school: refused before the key leaves the server.
  if (existing) return formError(duplicate, echo, 409);
  const env = context.cloudflare.env as Env & { MAILCHIMP_API_URL?: string };
  if (!env.INTEGRATIONS_KEY)
    return formError(
      { form: { key: "mailing.error.not_configured" } },
      echo,
      503
    );

  let listName: string;
  try {
    const list = await mailchimpForEnv(env, data.apiKey).checkList(data.listId);
    if (!list.hasFname)
      return formError(
        { listId: { key: "mailing.error.no_fname" } },
        echo,
        422
      );
    listName = list.name;
  } catch (error) {
    if (!(error instanceof MailchimpError)) throw error;
    if (error.kind === "auth")
      return formError(
        { apiKey: { key: "mailing.error.key_refused" } },
        echo,
        422
      );
    if (error.kind === "not_found")
      return formError(
        { listId: { key: "mailing.error.list_missing" } },
        echo,
        422
      );
    if (error.kind === "invalid")
      return formError(
        {
          form: {
            key: "mailing.error.refused",
            values: { reason: error.message },
          },
        },
        echo,
        422
      );
    return formError({ form: { key: "mailing.error.unavailable" } }, echo, 502);
  }
  try {
    await createBusinessIntegration(
      context.db,
      env.INTEGRATIONS_KEY,
      tenant.id,
      {
        provider: "mailchimp",
        credentials: { apiKey: data.apiKey },
        publicRef: keyHint(data.apiKey),
        settings: {
          listId: data.listId,
          listName,
          subscribeBuyers: data.subscribeBuyers,
          subscribeLeads: data.subscribeLeads,
        },
      }
    );
  } catch (error) {
    if (error instanceof DuplicateBusinessIntegrationError)
      return formError(duplicate, echo, 409);
    throw error;
  }
  throw redirect("/home/integrations/mailchimp?done=created", 303);
}

type ActionData = { errors: FieldErrors; values: FormValues };

function Checkbox({
  name,
  label,
  defaultChecked,
}: {
  name: string;
  label: string;
  defaultChecked: boolean;
}) {
  return (
    <label className="flex items-center gap-2 text-sm text-slate-700">
      <input
        type="checkbox"
        name={name}
        defaultChecked={defaultChecked}
        className="h-4 w-4 rounded border-slate-300"
      />
      {label}
    </label>
  );
}

function ConnectForm({ action }: { action: ActionData | undefined }) {
  const t = useT();
  const message = useFieldMessage();
  const navigation = useNavigation();
  const busy =
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === "connect";
  const values =
    action?.values.intent === "connect" ? action.values : undefined;
  return (
    <Card data-mailing-connect>
      <h2 className="text-lg font-semibold">{t("mailing.connect_title")}</h2>
      <p className="mt-1 text-sm text-slate-600">{t("mailing.connect_hint")}</p>
      {action?.errors.form ? (
        <div className="mt-3" data-form-error>
          <Alert>{message(action.errors.form)}</Alert>
        </div>
      ) : null}
      {/* Keyed by the answer, so a refused form keeps what was typed (the key excepted). */}
      <Form
        method="post"
        className="mt-4 grid gap-4 sm:grid-cols-2"
        key={action ? "answered" : "fresh"}
      >
        <input type="hidden" name="intent" value="connect" />
        <Field
          label={t("mailing.field.apiKey")}
          hint={t("mailing.field.apiKey_hint")}
          name="apiKey"
          type="password"
          autoComplete="off"
          required
          error={action?.errors.apiKey}
        />
        <Field
          label={t("mailing.field.listId")}
          hint={t("mailing.field.listId_hint")}
          name="listId"
          autoComplete="off"
          required
          defaultValue={values?.listId}
          error={action?.errors.listId}
        />
        <div className="space-y-2 sm:col-span-2">
          <Checkbox
            name="subscribeBuyers"
            label={t("mailing.field.subscribeBuyers")}
            defaultChecked={values ? values.subscribeBuyers === "on" : true}
          />
          <Checkbox
            name="subscribeLeads"
            label={t("mailing.field.subscribeLeads")}
            defaultChecked={values ? values.subscribeLeads === "on" : true}
          />
        </div>
        <div className="sm:col-span-2">
          <Button type="submit" disabled={busy}>
            {busy ? t("mailing.connecting") : t("mailing.connect")}
          </Button>
        </div>
      </Form>
    </Card>
  );
}

const STATUS_TONE = {
  subscribed: "bg-emerald-100 text-emerald-800",
  pending: "bg-amber-100 text-amber-800",
  failed: "bg-red-100 text-red-800",
} as const;

export default function MailchimpPage() {
  const data = useLoaderData<typeof loader>();
  const action = useActionData<ActionData>();
  const [params] = useSearchParams();
  const t = useT();
  const locale = useLocale();
  const message = useFieldMessage();
  const done = params.get("done");
  const doneKey =
    !action && done && done in DONE ? DONE[done as keyof typeof DONE] : null;
  const c = data.connected;
  return (
    <div className="space-y-6">
      <InstructorNav />
      <p className="text-sm">
        <Link
          to="/home/integrations"
          className="font-medium text-brand-700 hover:underline"
        >
          ← {t("mailing.back")}
        </Link>
      </p>
      <PageTitle subtitle={t("mailing.intro")}>{t("mailing.title")}</PageTitle>
      {doneKey ? (
        <div data-done={done}>
          <Alert tone="success">{t(doneKey)}</Alert>
        </div>
      ) : null}
      {c ? (
        <>
          {action?.errors.form ? (
            <div data-form-error>
              <Alert>{message(action.errors.form)}</Alert>
            </div>
          ) : null}
          <Card data-mailing-connected={c.listId}>
            <h2 className="text-lg font-semibold">
              {t("mailing.connected_title")}
            </h2>
            <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
              <dt className="text-slate-500">{t("mailing.key")}</dt>
              <dd className="font-mono" data-mailing-key>
                {c.keyHint}
              </dd>
              <dt className="text-slate-500">{t("mailing.list")}</dt>
              <dd>
                {c.listName}{" "}
                <span className="font-mono text-slate-500">({c.listId})</span>
              </dd>
              <dt className="text-slate-500">{t("mailing.connected_at")}</dt>
              <dd>{formatDate(c.createdAt, locale)}</dd>
            </dl>
            <Form method="post" className="mt-5 space-y-2" data-mailing-options>
              <h3 className="font-medium">{t("mailing.options")}</h3>
              <input type="hidden" name="intent" value="options" />
              <Checkbox
                name="subscribeBuyers"
                label={t("mailing.field.subscribeBuyers")}
                defaultChecked={c.subscribeBuyers}
              />
              <Checkbox
                name="subscribeLeads"
                label={t("mailing.field.subscribeLeads")}
                defaultChecked={c.subscribeLeads}
              />
              <Button type="submit" variant="secondary">
                {t("mailing.save_options")}
              </Button>
            </Form>
          </Card>
          <Card>
            <h2 className="text-lg font-semibold">{t("mailing.members")}</h2>
            {data.members.length === 0 ? (
              <p
                className="mt-3 text-sm text-slate-600"
                data-mailing-members-empty
              >
                {t("mailing.members_empty")}
              </p>
            ) : (
              <div className="mt-3 overflow-x-auto">
                <table
                  className="min-w-full text-left text-sm"
                  data-mailing-members
                >
                  <thead className="text-slate-500">
                    <tr>
                      <th scope="col" className="py-2 pr-4">
                        {t("mailing.col.email")}
                      </th>
                      <th scope="col" className="py-2 pr-4">
                        {t("mailing.col.source")}
                      </th>
                      <th scope="col" className="py-2 pr-4">
                        {t("mailing.col.status")}
                      </th>
                      <th scope="col" className="py-2 pr-4">
                        {t("mailing.col.updated")}
                      </th>
                      <th scope="col" className="py-2">
                        {t("mailing.col.error")}
                      </th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-100">
                    {data.members.map((m) => (
                      <tr
                        key={m.id}
                        data-mailing-member={m.email}
                        data-status={m.status}
                      >
                        <td className="py-2 pr-4 font-medium">{m.email}</td>
                        <td className="py-2 pr-4">
                          {t(`mailing.source.${m.source}`)}
                        </td>
                        <td className="py-2 pr-4">
                          <span
                            className={cx(
                              "rounded px-2 py-0.5 text-xs font-semibold",
                              STATUS_TONE[m.status]
                            )}
                          >
                            {t(`mailing.status.${m.status}`)}
                          </span>
                        </td>
                        <td className="py-2 pr-4 whitespace-nowrap">
                          {formatDateTime(m.updatedAt)}
                        </td>
                        <td className="py-2 text-slate-600">{m.error ?? ""}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </Card>
          <Card>
            <Form method="post" className="space-y-3" data-mailing-disconnect>
              <input type="hidden" name="intent" value="disconnect" />
              <h2 className="text-lg font-semibold">
                {t("mailing.disconnect")}
              </h2>
              <p className="text-sm text-slate-600">
                {t("mailing.disconnect_confirm")}
              </p>
              <label className="block text-sm">
                <span className="text-slate-700">
                  {t("mailing.disconnect_confirm_label")}
                </span>
                <input
                  name="confirm"
                  autoComplete="off"
                  className="mt-1 block w-40 rounded-md border border-slate-300 px-2 py-1"
                  aria-invalid={action?.errors.confirm ? true : undefined}
                />
              </label>
              {action?.errors.confirm ? (
                <p className="text-sm text-red-700" role="alert">
                  {message(action.errors.confirm)}
                </p>
              ) : null}
              <Button type="submit" variant="danger">
                {t("mailing.disconnect")}
              </Button>
            </Form>
          </Card>
        </>
      ) : (
        <ConnectForm action={action} />
      )}
    </div>
  );
}
