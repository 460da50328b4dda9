// POST /home/subpages/{subpageId}/blocks/order — reorder blocks: the whole order (drag and drop,
// keyboard) or one step of one block (the Move up / Move down buttons, no JavaScript needed).
import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { OrderSchema, resourceError } from "#app/media/lecture-form.server.ts";
import { moveBlock, reorderBlocks } from "#app/models/block.server.ts";
import { getSubpage } from "#app/models/subpage.server.ts";
import { requireUser } from "#app/auth/auth.server.ts";
import { notFound, requireSchool } from "#app/utils/request.server.ts";
import { parseForm } from "#app/utils/validation.ts";

export async function loader() {
  notFound();
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const tenant = requireSchool(context);
  const subpage = await getSubpage(
    context.db,
    tenant.id,
    params.subpageId ?? ""
  );
  if (!subpage) notFound();
  await requireUser(request, context, ["owner", "admin"]);
  const base = `/home/subpages/${subpage.id}/blocks`;
  const parsed = await parseForm(OrderSchema, request);
  if (!parsed.ok)
    return resourceError(request, base, {
      form: { key: "subpages.error.order" },
    });
  const data = parsed.data;
  const ok =
    "order" in data
      ? await reorderBlocks(context.db, tenant.id, subpage.id, data.order)
      : await moveBlock(context.db, tenant.id, subpage.id, data.id, data.move);
  // A stale page (a block added or removed meanwhile) or a block already at the end: nothing written.
  if (!ok)
    return resourceError(
      request,
      base,
      { form: { key: "subpages.error.order" } },
      {},
      409
    );
  return redirect(`${base}?done=order`);
}
