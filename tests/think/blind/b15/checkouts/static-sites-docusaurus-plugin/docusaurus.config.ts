import type { Config } from "@docusaurus/types";

const config: Config = {
  title: "Platform Docs",
  url: "https://docs.example.internal",
  baseUrl: "/",
  onBrokenLinks: "throw",
  plugins: ["./plugins/release-notes"],
  presets: [["classic", { docs: { sidebarPath: "./sidebars.ts" } }]],
};

export default config;
