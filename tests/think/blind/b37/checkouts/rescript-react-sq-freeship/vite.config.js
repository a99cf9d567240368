import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

export default defineConfig({
  plugins: [react({ include: ["**/*.res.mjs"] })],
  test: { include: ["src/**/*_test.res.mjs"] },
});
