import functionsTest from "firebase-functions-test";
import { getFirestore } from "firebase-admin/firestore";

const fft = functionsTest({ projectId: "demo-tideline" });
import { onProfileUpdate } from "../src/triggers/users";

describe("onProfileUpdate", () => {
  afterAll(() => fft.cleanup());

  it("mirrors displayName into the public profile", async () => {
    const wrapped = fft.wrap(onProfileUpdate);
    const before = fft.firestore.makeDocumentSnapshot({ displayName: "A" }, "users/u1");
    const after = fft.firestore.makeDocumentSnapshot({ displayName: "B" }, "users/u1");
    await wrapped({ data: fft.makeChange(before, after), params: { uid: "u1" } });
    const pub = await getFirestore().doc("publicProfiles/u1").get();
    expect(pub.get("displayName")).toBe("B");
  });
});
