export function relatedByTags<T extends { data: { tags: string[] } }>(post: T, all: T[], n = 3): T[] {
  const score = (p: T) => p.data.tags.filter((t) => post.data.tags.includes(t)).length;
  return all.filter((p) => p !== post).sort((a, b) => score(b) - score(a)).slice(0, n);
}
