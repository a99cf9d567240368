import { assertEquals } from "std/assert";

const url = Deno.env.get("SUPABASE_URL") ?? "http://127.0.0.1:54321";
const key = Deno.env.get("SUPABASE_ANON_KEY")!;

Deno.test("assigns to least busy agent", async () => {
  const res = await fetch(`${url}/functions/v1/assign-ticket`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ ticket_id: 1 }),
  });
  const body = await res.json();
  assertEquals(res.status, 200);
  assertEquals(body.assignee_id, "agent-quiet");
});
