import type { FeedItem } from "./types.ts";
import { parseFeed } from "./parse.ts";

export async function fetchFeed(url: string): Promise<FeedItem[]> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`feed ${url}: HTTP ${res.status}`);
  return parseFeed(await res.text());
}
