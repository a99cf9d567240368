import { DateTime } from "luxon";

export function readableDate(date, fmt = "d LLLL yyyy") {
  return DateTime.fromJSDate(date, { zone: "utc" }).toFormat(fmt);
}

export function excerpt(content, words = 40) {
  const text = content.replace(/<[^>]+>/g, " ").split(/\s+/).filter(Boolean);
  return text.slice(0, words).join(" ") + (text.length > words ? "…" : "");
}

export default { readableDate, excerpt };
