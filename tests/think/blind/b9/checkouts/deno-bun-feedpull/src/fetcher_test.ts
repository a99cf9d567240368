import { assertEquals, assertRejects } from "@std/assert";
import { fetchFeed } from "./fetcher.ts";

Deno.test("fetchFeed parses items", async () => {
  await using srv = Deno.serve({ port: 0, onListen() {} }, () =>
    new Response(`<rss><channel><item><title>a</title></item></channel></rss>`));
  const items = await fetchFeed(`http://127.0.0.1:${srv.addr.port}/`);
  assertEquals(items.map((i) => i.title), ["a"]);
});

Deno.test("fetchFeed rejects on 404", async () => {
  await using srv = Deno.serve({ port: 0, onListen() {} }, () => new Response("", { status: 404 }));
  await assertRejects(() => fetchFeed(`http://127.0.0.1:${srv.addr.port}/`));
});
