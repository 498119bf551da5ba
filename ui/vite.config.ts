import { defineConfig } from 'vite';

// The UI is served by `stepscope serve` from ui/dist. Everything is bundled: no CDN, no
// web fonts, nothing fetched at run time except /api on the same origin.
export default defineConfig({
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 1200,
    sourcemap: false,
  },
  server: {
    // `npm run dev` talks to a running `stepscope serve` (start it with
    // --cors_origin http://localhost:5173 only if you bypass this proxy).
    proxy: { '/api': 'http://127.0.0.1:6006' },
  },
});
