/**
 * What the page needs to run under its Content-Security-Policy (set by the server, apps/api):
 * main.tsx imports this module first, before anything that could inject a style or parse.
 */

/**
 * Inline styles need this page's nonce, which the server writes into <meta property="csp-nonce">
 * (vite's html.cspNonce placeholder, see vite.config.ts). goober, which react-hot-toast styles
 * its toasts with, gives its <style> element `window.__nonce__` when it creates it, which can be
 * as soon as react-hot-toast is imported.
 */
const nonce = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce;
if (nonce) (window as Window & { __nonce__?: string }).__nonce__ = nonce;

/**
 * zod (loaded later, with the shared schemas) probes for eval with `new Function('')` unless
 * told `jitless`; script-src 'self' refuses it, and the browser reports a CSP violation for
 * every page even though zod catches the error. zod reads its settings from this global (how
 * its copies share them), so it is set here without importing zod into the first download.
 */
const zodConfig = globalThis as { __zod_globalConfig?: Record<string, unknown> };
zodConfig.__zod_globalConfig = { ...zodConfig.__zod_globalConfig, jitless: true };
