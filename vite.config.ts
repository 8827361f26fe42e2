import { defineConfig } from "vite";

// Builds the admin SPA into dist/admin-ui, which the server serves at `/`.
export default defineConfig({
  root: "admin-ui",
  build: { outDir: "../dist/admin-ui", emptyOutDir: true },
});
