export interface TabLike {
  id: number;
  url?: string;
  pinned: boolean;
  windowId: number;
}

export interface GroupingOptions {
  minTabsPerGroup: number;
}

export function hostnameOf(url?: string): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return null;
  }
}

export function groupTabsByDomain(tabs: TabLike[], opts: GroupingOptions): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  for (const tab of tabs) {
    const host = hostnameOf(tab.url);
    if (!host) continue;
    const ids = groups.get(host) ?? [];
    ids.push(tab.id);
    groups.set(host, ids);
  }
  for (const [host, ids] of groups) {
    if (ids.length < opts.minTabsPerGroup) groups.delete(host);
  }
  return groups;
}
