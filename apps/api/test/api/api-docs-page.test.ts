import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

/** The directives of a Content-Security-Policy header, by name. */
function cspDirectives(header: string | undefined): Map<string, string[]> {
  return new Map(
    (header ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

const attributes = (tag: string) =>
  new Map([...tag.matchAll(/([\w-]+)\s*=\s*"([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));

describe(`the interactive API reference at /api/docs (${ENGINE})`, () => {
  let ctx: TestContext;
  let html: string;
  let csp: Map<string, string[]>;

  beforeAll(async () => {
    ctx = await createTestContext();
    const res = await ctx.api.get('/api/docs').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    html = res.text;
    csp = cspDirectives(res.headers['content-security-policy']);
  });
  afterAll(() => ctx.close());

  it('is served under a CSP that allows scripts from our own origin only', () => {
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('script-src-attr')).toEqual(["'none'"]);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('connect-src') ?? csp.get('default-src')).toEqual(["'self'"]);
  });

  it('has no inline script: every script is a same-origin file', () => {
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThanOrEqual(2);
    for (const [, attrs, body] of scripts) {
      const src = attributes(attrs!).get('src');
      expect(src, attrs).toMatch(/^\/(?!\/)/);
      expect(body!.trim()).toBe('');
    }
    // Nor inline handlers or javascript: links, which script-src-attr 'none' would block.
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    expect(html).not.toMatch(/javascript:/i);
    expect(html).not.toMatch(/<style\b/i);
    // Nothing from a CDN or any other origin.
    expect(html).not.toMatch(/(src|href)\s*=\s*"(https?:)?\/\//i);
  });

  it('serves every script, stylesheet and icon the page references', async () => {
    const references = [...html.matchAll(/<(script|link)\b([^>]*)>/gi)].map(([, tag, attrs]) => ({
      tag: tag!.toLowerCase(),
      url: attributes(attrs!).get(tag!.toLowerCase() === 'script' ? 'src' : 'href'),
      rel: attributes(attrs!).get('rel'),
    }));
    expect(references.filter((ref) => ref.rel === 'stylesheet').length).toBeGreaterThan(0);
    for (const { tag, url, rel } of references) {
      expect(url, tag).toBeDefined();
      const res = await ctx.api.get(url!);
      expect(res.status, url).toBe(200);
      const type = String(res.headers['content-type']);
      if (tag === 'script') expect(type, url).toMatch(/^(text|application)\/javascript/);
      else if (rel === 'stylesheet') expect(type, url).toMatch(/^text\/css/);
      else expect(type, url).toMatch(/^image\//);
    }
  });

  it('starts Swagger UI on our document from its own script file', async () => {
    const sources = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/gi)].map((m) => m[1]!);
    const bodies = await Promise.all(
      sources.map(async (src) => (await ctx.api.get(src).expect(200)).text),
    );
    expect(bodies.some((body) => body.includes('SwaggerUIBundle'))).toBe(true);
    const starter = bodies.find((body) => /SwaggerUIBundle\(\s*\{/.test(body));
    expect(starter).toContain("url: '/api/openapi.json'");
    expect(starter).toContain("dom_id: '#swagger-ui'");
    expect(html).toContain('id="swagger-ui"');
  });

  it('answers with a trailing slash too', async () => {
    const res = await ctx.api.get('/api/docs/').expect(200);
    expect(res.text).toBe(html);
  });

  it("serves none of swagger-ui-dist's other files (its petstore page and initializer)", async () => {
    for (const path of [
      '/api/docs/index.html',
      '/api/docs/swagger-initializer.js',
      '/api/docs/package.json',
      '/api/docs/../package.json',
      '/api/docs/oauth2-redirect.html',
    ]) {
      const res = await ctx.api.get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers['content-type'], path).toMatch(/^application\/json/);
    }
  });
});
