export interface SlugOptions {
  separator?: string;
  lower?: boolean;
}

export function slugify(input: string, opts: SlugOptions = {}): string {
  const sep = opts.separator ?? "-";
  const s = input
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9]+/g, sep)
    .replace(new RegExp(`^${sep}|${sep}$`, "g"), "");
  return opts.lower === false ? s : s.toLowerCase();
}
