import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TaskAttachments } from './task-attachments';

describe('task attachments', { timeout: 30_000 }, () => {
  it('opens each link in a new tab, adding https:// when the link has no scheme', () => {
    render(
      <TaskAttachments
        links={['example.com/plan', 'https://docs.example.org/brief', 'http://old.example.net']}
      />,
    );
    const hrefs = screen.getAllByRole('link').map((link) => link.getAttribute('href'));
    expect(hrefs).toEqual([
      'https://example.com/plan',
      'https://docs.example.org/brief',
      'http://old.example.net',
    ]);
    for (const link of screen.getAllByRole('link')) {
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    }
  });

  it('shows the link as typed, as text and never as HTML', () => {
    render(<TaskAttachments links={['<b>bold</b>.example.com']} />);
    expect(screen.getByRole('link', { name: /<b>bold<\/b>\.example\.com/ })).toBeInTheDocument();
    expect(document.querySelector('b')).toBeNull();
  });
});
