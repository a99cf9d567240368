import { defineCollection, reference, z } from "astro:content";

const authors = defineCollection({
  type: "data",
  schema: z.object({ name: z.string(), role: z.string(), avatar: z.string().optional() }),
});

const posts = defineCollection({
  type: "content",
  schema: z.object({
    title: z.string(),
    pubDate: z.coerce.date(),
    author: reference("authors"),
    tags: z.array(z.string()).default([]),
  }),
});

export const collections = { authors, posts };
