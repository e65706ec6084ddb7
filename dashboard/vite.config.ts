import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The dashboard is built into dist/dashboard and served by the gateway at /dashboard
// (src/http/dashboard.ts). `npm run dashboard:dev` serves it with hot reload and proxies the API
// to a gateway on GATEWAY_URL (default http://127.0.0.1:8080), started with `npm start`.
const root = fileURLToPath(new URL('.', import.meta.url));
const gateway = process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  root,
  base: '/dashboard/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/dashboard', import.meta.url)),
    emptyOutDir: true,
    // Figures in BENCHMARKS.md ("Dashboard"); screens are split per route (React.lazy).
    chunkSizeWarningLimit: 600,
  },
  server: { proxy: { '/v1': gateway, '/healthz': gateway } },
});
