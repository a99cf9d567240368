import { recordEvent, listEvents } from "./events";

export default {
  async fetch(request, env, ctx): Promise<Response> {
    const url = new URL(request.url);
    if (request.method === "POST" && url.pathname === "/events") {
      const body = await request.json<AuditEvent>();
      await recordEvent(env, body);
      return new Response(null, { status: 202 });
    }
    if (url.pathname === "/events") return Response.json(await listEvents(env));
    return new Response("not found", { status: 404 });
  },
} satisfies ExportedHandler<Env>;
