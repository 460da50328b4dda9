import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { domainsService } from "#app/domains/domains-service.server.ts";
import { createAuthToken } from "#app/models/auth-token.server.ts";
import { getTenantDomain } from "#app/models/domain.server.ts";
import { requireUser } from "#app/auth/auth.server.ts";
import { notFound, requireSchool } from "#app/utils/request.server.ts";
import { parseForm } from "#app/utils/validation.ts";

const DomainActionSchema = z.object({
  intent: z.enum(["check", "set_primary", "unset_primary", "remove"]),
  confirm: z.string().max(20).optional(),
});

export async function loader() {
  notFound();
}

/** Check again, make primary, remove. The id is looked up in this school first: another school's id is 404. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const tenant = requireSchool(context);
  const domain = await getTenantDomain(
    context.db,
    tenant.id,
    params.domainId ?? ""
  );
  if (!domain) notFound();
  const user = await requireUser(request, context, ["owner", "admin"]);
  const parsed = await parseForm(DomainActionSchema, request);
  if (!parsed.ok) throw new Response("Bad Request", { status: 400 });
  const service = domainsService(context.cloudflare.env, tenant.id);
  const back = (query: Record<string, string>) =>
    redirect(`/home/settings/domain?${new URLSearchParams(query)}`);
  const { intent } = parsed.data;
  let result;
  if (intent === "remove") {
    // Seed 001 §5: deletion requires typing DELETE.
    if (parsed.data.confirm !== "DELETE")
      return back({ error: "domains.error.confirm_delete" });
    result = await service.remove(domain.id);
  } else if (intent === "check") {
    result = await service.check(domain.id);
  } else {
    result = await service.setPrimary(domain.id, intent === "set_primary");
  }
  if (!result.ok) return back({ error: result.error });
  // Routing changed: forget this school's hosts in this isolate (others follow within the TTL).
  context.siteCache.invalidateTenant(tenant.id);
  context.siteCache.invalidateHost(domain.hostname);
  const done =
    intent === "remove"
      ? "removed"
      : intent === "check"
      ? "check_started"
      : intent === "set_primary"
      ? "primary_set"
      : "primary_cleared";
  const query = new URLSearchParams({ done, host: domain.hostname });
  // Session cookies are host-only: when the creator's next page lives on another host (the new
  // primary, or the subdomain after removing the host they are on), hand them over signed in.
  const current = context.site.hostname;
  const nextHost =
    intent === "set_primary" && domain.hostname !== current
      ? domain.hostname
      : intent === "remove" && domain.hostname === current
      ? `${tenant.slug}.${context.cloudflare.env.PLATFORM_HOST}`
      : null;
  if (nextHost) {
    const token = await createAuthToken(
      context.db,
      tenant.id,
      user.id,
      "login_handover"
    );
    const target = new URL(request.url);
    target.hostname = nextHost;
    target.pathname = "/auth/handover";
    target.search = new URLSearchParams({
      token,
      next: `/home/settings/domain?${query}`,
    }).toString();
    return redirect(target.toString());
  }
  return redirect(`/home/settings/domain?${query}`);
}
