import { Router } from "express";
import { getFirestore, FieldValue } from "firebase-admin/firestore";

export const ordersRouter = Router();

ordersRouter.post("/", async (req, res) => {
  const { cartId, items } = req.body ?? {};
  if (!Array.isArray(items) || items.length === 0) {
    res.status(400).json({ error: "empty cart" });
    return;
  }
  const ref = await getFirestore().collection("orders").add({
    cartId,
    items,
    status: "pending",
    createdAt: FieldValue.serverTimestamp(),
  });
  res.status(201).json({ id: ref.id });
});
