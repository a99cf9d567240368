import { addDays, isWeekend } from "date-fns";

export function dueDate(issued: Date, netDays: number): Date {
  return addDays(issued, netDays);
}
