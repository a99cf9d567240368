import type { LoadContext, Plugin } from "@docusaurus/types";
import fs from "node:fs/promises";
import path from "node:path";

export type Release = { version: string; date: string; notes: string };

export default function releaseNotesPlugin(context: LoadContext): Plugin<Release[]> {
  return {
    name: "release-notes",
    async loadContent() {
      const file = path.join(context.siteDir, "releases.json");
      return JSON.parse(await fs.readFile(file, "utf8")) as Release[];
    },
    async contentLoaded({ content, actions }) {
      actions.setGlobalData({ releases: content });
    },
  };
}
