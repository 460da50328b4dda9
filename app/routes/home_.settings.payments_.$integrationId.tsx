// POST /home/settings/payments/{id} (issue 8 item 3): enable, disable or delete one of this
// school's payment integrations. The id is looked up in this school first: another school's is 404.
// Where test payments are not allowed (issue 18 §2), an integration with test credentials (the test
// provider, PayU sandbox, a Stripe test key) cannot be enabled: checkout would not offer it anyway.
import {
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
} from "@remix-run/cloudflare";
import { z } from "zod";
import {
  deleteIntegration,
  getIntegration,
  openCredentials,
  setIntegrationEnabled,
  type PaymentIntegration,
} from "#app/models/payment-integration.server.ts";
import {
  testPaymentsAllowed,
  usesTestCredentials,
} from "#app/payments/payment-mode.server.ts";
import { requireUser } from "#app/auth/auth.server.ts";
import { notFound, requireSchool } from "#app/utils/request.server.ts";
import { parseForm } from "#app/utils/validation.ts";

const IntegrationActionSchema = z.object({
  intent: z.enum(["enable", "disable", "delete"]),
  confirm: z.string().max(20).optional(),
});

const back = (query: Record<string, string>) =>
  redirect(`/home/settings/payments?${new URLSearchParams(query)}`, 303);

/** Does this integration take test payments (its sealed credentials opened)? Credentials that do not open take nothing. */
async function takesTestPayments(
  key: string | undefined,
  integration: PaymentIntegration
) {
  if (integration.provider === "test") return true;
  const credentials = key ? await openCredentials(key, integration) : null;
  return (
    !!credentials && usesTestCredentials(integration.provider, credentials)
  );
}

/** No page of its own: the list shows every integration. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const tenant = requireSchool(context);
  if (
    !(await getIntegration(context.db, tenant.id, params.integrationId ?? ""))
  )
    notFound();
  await requireUser(request, context, ["owner", "admin"]);
  return redirect("/home/settings/payments");
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const tenant = requireSchool(context);
  const integration = await getIntegration(
    context.db,
    tenant.id,
    params.integrationId ?? ""
  );
  if (!integration) notFound();
  await requireUser(request, context, ["owner", "admin"]);
  const parsed = await parseForm(IntegrationActionSchema, request);
  if (!parsed.ok) throw new Response("Bad Request", { status: 400 });
  const { intent } = parsed.data;
  if (intent === "delete") {
    // Seed 001 §5: deletion requires typing DELETE.
    if (parsed.data.confirm?.trim() !== "DELETE")
      return back({ error: "payments.error.confirm_delete" });
    // A concurrent delete may have won: still 404 for this request's answer.
    if (!(await deleteIntegration(context.db, tenant.id, integration.id)))
      notFound();
    return back({ done: "deleted" });
  }
  const env = context.cloudflare.env;
  if (
    intent === "enable" &&
    !testPaymentsAllowed(env) &&
    (await takesTestPayments(env.INTEGRATIONS_KEY, integration))
  )
    return back({ error: "payments.error.test_mode_enable" });
  if (
    !(await setIntegrationEnabled(
      context.db,
      tenant.id,
      integration.id,
      intent === "enable"
    ))
  )
    notFound();
  return back({ done: intent === "enable" ? "enabled" : "disabled" });
}
