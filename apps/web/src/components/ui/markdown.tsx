import { ImageIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';

/** Only web links leave the page; anything else (javascript:, data:, relative) is not a link. */
export function safeHref(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** An image's words: its alt text, else the last part of its address. */
function imageName(alt: string | undefined, src: string | undefined): string {
  if (alt?.trim()) return alt.trim();
  const last = src?.split(/[?#]/)[0]?.split('/').filter(Boolean).pop();
  return last ? decodeURIComponent(last) : 'image';
}

/**
 * What Markdown may produce: text formatting, links, code, lists and quotes, and images as links
 * to them (never loaded: no tracking pixel, no address seen by another site); no HTML.
 */
const ALLOWED = [
  'p',
  'br',
  'strong',
  'em',
  'del',
  'a',
  'code',
  'pre',
  'ul',
  'ol',
  'li',
  'blockquote',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'img',
];

/**
 * A link out of the page, to a web address only (anything else shows as plain text): a new tab,
 * without a handle back to this page or the page's address as referrer.
 */
function WebLink({ url, children }: { url: string | undefined; children: ReactNode }) {
  const target = url ? safeHref(url) : undefined;
  if (!target) return <span>{children}</span>;
  return (
    <a
      href={target}
      target="_blank"
      rel="noopener noreferrer nofollow"
      className="text-blue-700 underline"
    >
      {children}
    </a>
  );
}

const components: Components = {
  a: ({ href, children }) => <WebLink url={href}>{children}</WebLink>,
  // An image is a link to it, named by its alt text, with an image icon: nothing is loaded.
  img: ({ src, alt }) => {
    const url = typeof src === 'string' ? src : undefined;
    return (
      <WebLink url={url}>
        <ImageIcon size={14} aria-hidden className="mr-1 inline align-[-2px]" />
        {imageName(alt, url)}
      </WebLink>
    );
  },
  // Headings inside a comment are shown as bold text: the page's outline stays the page's.
  h1: ({ children }) => <p className="font-semibold">{children}</p>,
  h2: ({ children }) => <p className="font-semibold">{children}</p>,
  h3: ({ children }) => <p className="font-semibold">{children}</p>,
  h4: ({ children }) => <p className="font-semibold">{children}</p>,
  h5: ({ children }) => <p className="font-semibold">{children}</p>,
  h6: ({ children }) => <p className="font-semibold">{children}</p>,
  code: ({ children }) => (
    <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.9em] text-slate-900">
      {children}
    </code>
  ),
  pre: ({ children }) => (
    <pre className="overflow-x-auto rounded bg-slate-100 p-2 text-sm">{children}</pre>
  ),
  ul: ({ children }) => <ul className="list-disc pl-5">{children}</ul>,
  ol: ({ children }) => <ol className="list-decimal pl-5">{children}</ol>,
  blockquote: ({ children }) => (
    <blockquote className="border-l-4 border-slate-300 pl-3 text-slate-700">{children}</blockquote>
  ),
};

/**
 * Text someone wrote in Markdown (a comment), rendered as React elements: raw HTML in it is
 * shown as the text it is (react-markdown never parses it into markup), links go to http(s)
 * only and open in a new tab, images are links to them, never loaded.
 */
export function Markdown({ text }: { text: string }) {
  return (
    <div className="flex flex-col gap-2 text-sm break-words text-slate-800">
      <ReactMarkdown
        allowedElements={ALLOWED}
        unwrapDisallowed
        skipHtml={false}
        components={components}
        urlTransform={(url) => safeHref(url) ?? ''}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}
