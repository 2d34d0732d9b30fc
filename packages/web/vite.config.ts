import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  // `npm run dev` here proxies the API to a server started with `npm run dev` at the root.
  server: {
    proxy: { '/api': 'http://localhost:8080', '/v1': 'http://localhost:8080', '/healthz': 'http://localhost:8080' },
  },
});
