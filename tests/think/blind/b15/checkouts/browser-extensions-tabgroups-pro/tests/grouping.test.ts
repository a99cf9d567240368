import { describe, expect, it } from 'vitest';
import { groupTabsByDomain, hostnameOf } from '../utils/grouping';

const tab = (id: number, url: string, pinned = false) => ({ id, url, pinned, windowId: 1 });

describe('hostnameOf', () => {
  it('strips www', () => {
    expect(hostnameOf('https://www.example.com/a')).toBe('example.com');
  });
  it('returns null for chrome:// pages without host', () => {
    expect(hostnameOf('not a url')).toBeNull();
  });
});

describe('groupTabsByDomain', () => {
  it('groups tabs sharing a host', () => {
    const groups = groupTabsByDomain(
      [tab(1, 'https://github.com/a'), tab(2, 'https://github.com/b'), tab(3, 'https://news.ycombinator.com')],
      { minTabsPerGroup: 2 },
    );
    expect([...groups.entries()]).toEqual([['github.com', [1, 2]]]);
  });
});
