import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Markdown, safeHref } from './markdown';

describe('Markdown', () => {
  it('renders emphasis, code, lists, quotes and web links', () => {
    const { container } = render(
      <Markdown
        text={[
          '**bold** and _soft_ and `code`',
          '',
          '- one',
          '- two',
          '',
          '> quoted',
          '',
          '[the docs](https://example.com/docs)',
        ].join('\n')}
      />,
    );
    expect(container.querySelector('strong')).toHaveTextContent('bold');
    expect(container.querySelector('em')).toHaveTextContent('soft');
    expect(container.querySelector('code')).toHaveTextContent('code');
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['one', 'two']);
    expect(container.querySelector('blockquote')).toHaveTextContent('quoted');
    const link = screen.getByRole('link', { name: 'the docs' });
    expect(link).toHaveAttribute('href', 'https://example.com/docs');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
  });

  it('shows raw HTML as the text it is, and builds no element from it', () => {
    const { container } = render(
      <Markdown
        text={'<img src=x onerror="alert(1)"> <script>alert(2)</script> <b>not bold</b>'}
      />,
    );
    expect(container.querySelector('img, script, b')).toBeNull();
    expect(container).toHaveTextContent('<img src=x onerror="alert(1)">');
    expect(container).toHaveTextContent('<script>alert(2)</script>');
  });

  it('makes no link of javascript:, data: or other non-web addresses', () => {
    const { container } = render(
      <Markdown
        text={
          '[a](javascript:alert(1)) [b](data:text/html,hi) [c](vbscript:x) <javascript:alert(3)> ![d](data:image/png;base64,AAAA)'
        }
      />,
    );
    expect(container.querySelector('a')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    expect(container).toHaveTextContent('a b c');
    // An image whose address is not a web one keeps its words, as text.
    expect(container).toHaveTextContent(/\sd$/);
  });

  it('shows an image as a link to it, named by its alt text, never loading it', () => {
    const { container } = render(
      <Markdown
        text={
          'See ![the wiring diagram](https://example.com/files/wiring.png) and ![](https://example.com/a/b/photo%201.jpg?size=2)'
        }
      />,
    );
    expect(container.querySelector('img')).toBeNull();
    const links = [...container.querySelectorAll('a')];
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['the wiring diagram', 'https://example.com/files/wiring.png'],
      ['photo 1.jpg', 'https://example.com/a/b/photo%201.jpg?size=2'],
    ]);
    for (const link of links) {
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toContain('noreferrer');
    }
  });

  it('keeps only http and https', () => {
    expect(safeHref('https://example.com/x')).toBe('https://example.com/x');
    expect(safeHref('http://example.com')).toBe('http://example.com/');
    expect(safeHref('JaVaScRiPt:alert(1)')).toBeUndefined();
    expect(safeHref('/relative')).toBeUndefined();
    expect(safeHref('mailto:a@b.co')).toBeUndefined();
  });
});
