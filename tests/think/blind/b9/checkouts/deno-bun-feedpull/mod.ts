export { fetchFeed } from "./src/fetcher.ts";
export type { FeedItem } from "./src/types.ts";
