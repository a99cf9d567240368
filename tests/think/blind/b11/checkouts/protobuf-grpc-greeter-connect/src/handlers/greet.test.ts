import { describe, expect, it } from "vitest";
import { createRouterTransport, createClient } from "@connectrpc/connect";
import { GreetService } from "../gen/greet/v1/greet_pb.js";
import { greet } from "./greet.js";

const client = createClient(
  GreetService,
  createRouterTransport(({ service }) => service(GreetService, greet)),
);

describe("greet", () => {
  it("greets by name", async () => {
    const res = await client.greet({ name: "Ada" });
    expect(res.greeting).toBe("Hello, Ada!");
  });
});
