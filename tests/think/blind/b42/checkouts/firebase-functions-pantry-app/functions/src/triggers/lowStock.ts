import { onDocumentWritten } from "firebase-functions/v2/firestore";
import { getFirestore } from "firebase-admin/firestore";

const THRESHOLD = 5;

export const onInventoryWrite = onDocumentWritten("inventory/{sku}", async (event) => {
  const before = event.data?.before.data();
  const after = event.data?.after.data();
  if (!after) return;
  if ((before?.qty ?? Infinity) >= THRESHOLD && after.qty < THRESHOLD) {
    await getFirestore().collection("alerts").add({ sku: event.params.sku, qty: after.qty, kind: "low-stock" });
  }
});
