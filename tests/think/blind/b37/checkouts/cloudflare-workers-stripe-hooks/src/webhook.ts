export async function handleWebhook(request: Request, env: Env): Promise<Response> {
  const body = await request.text();
  const event = JSON.parse(body);
  await env.EVENTS.send({ id: event.id, type: event.type });
  return new Response("ok");
}
