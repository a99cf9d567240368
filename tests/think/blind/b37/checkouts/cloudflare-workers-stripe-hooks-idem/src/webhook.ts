import { verifyStripeSignature } from "./signature";

export async function handleWebhook(request: Request, env: Env): Promise<Response> {
  const body = await request.text();
  const bad = await verifyStripeSignature(request, body, env);
  if (bad) return bad;
  const event = JSON.parse(body);
  await env.EVENTS.send({ id: event.id, type: event.type });
  return new Response("ok");
}
