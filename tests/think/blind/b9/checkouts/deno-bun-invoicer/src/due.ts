import { addDays } from "./dates.ts";

export function dueDate(issued: Date, terms: "net15" | "net30"): Date {
  return addDays(issued, terms === "net15" ? 15 : 30);
}
