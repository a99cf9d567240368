import jwt from "jsonwebtoken";
import { verifySession } from "./verify";
import { privateKey } from "../../test/fixtures/keys";

test("accepts an RS256 token and splits scopes", () => {
  const token = jwt.sign({ sub: "u1", scp: "read write" }, privateKey, { algorithm: "RS256" });
  expect(verifySession(token)).toEqual({ sub: "u1", scopes: ["read", "write"] });
});

test("rejects an HS256 token signed with the public key", () => {
  const token = jwt.sign({ sub: "u1" }, "not-the-key", { algorithm: "HS256" });
  expect(() => verifySession(token)).toThrow();
});
