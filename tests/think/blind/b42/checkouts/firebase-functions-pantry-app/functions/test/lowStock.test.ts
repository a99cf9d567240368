import functionsTest from "firebase-functions-test";
import { onInventoryWrite } from "../src/triggers/lowStock";

const fft = functionsTest({ projectId: "demo-pantry" });

describe("onInventoryWrite", () => {
  afterAll(() => fft.cleanup());

  it("queues a low-stock alert when quantity drops below threshold", async () => {
    const wrapped = fft.wrap(onInventoryWrite);
    const before = fft.firestore.makeDocumentSnapshot({ qty: 12 }, "inventory/sku-1");
    const after = fft.firestore.makeDocumentSnapshot({ qty: 3 }, "inventory/sku-1");
    await wrapped({ data: fft.makeChange(before, after), params: { sku: "sku-1" } });
  });
});
