import { createClient } from "@supabase/supabase-js";

Deno.serve(async (req) => {
  const supabase = createClient(
    Deno.env.get("SUPABASE_URL")!,
    Deno.env.get("SUPABASE_SERVICE_ROLE_KEY")!,
  );
  const { ticket_id } = await req.json();
  const { data: agents } = await supabase
    .from("agents")
    .select("id, open_tickets")
    .eq("active", true)
    .order("open_tickets", { ascending: true });
  const agent = agents?.[0];
  if (!agent) return new Response(JSON.stringify({ error: "no agent available" }), { status: 409 });
  await supabase.from("tickets").update({ assignee_id: agent.id }).eq("id", ticket_id);
  return new Response(JSON.stringify({ assignee_id: agent.id }), { headers: { "Content-Type": "application/json" } });
});
