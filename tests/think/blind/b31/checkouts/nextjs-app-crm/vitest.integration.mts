import { defineConfig } from "vitest/config"

export default defineConfig({
  test: { include: ["tests/integration/**/*.test.ts"], globalSetup: "tests/integration/global-setup.ts", pool: "forks" },
})
