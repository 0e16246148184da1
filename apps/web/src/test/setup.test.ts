import { describe, expect, it, vi } from 'vitest';

describe('the jsdom test setup', () => {
  it('answers matchMedia queries with "no match"', () => {
    const query = window.matchMedia('(min-width: 1080px)');
    expect(query.matches).toBe(false);
    expect(query.media).toBe('(min-width: 1080px)');
  });

  it('provides the jest-dom matchers', () => {
    const button = document.createElement('button');
    button.textContent = 'LOGIN';
    document.body.append(button);
    expect(button).toBeInTheDocument();
    expect(button).toHaveTextContent('LOGIN');
    button.remove();
    expect(button).not.toBeInTheDocument();
  });

  it('opens and closes a <dialog> through showModal() and close()', () => {
    const dialog = document.createElement('dialog');
    dialog.showModal();
    expect(dialog.open).toBe(true);
    dialog.close();
    expect(dialog.open).toBe(false);
  });

  it('lets a test that expects a console.error silence it', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    console.error('expected');
    expect(error).toHaveBeenCalledWith('expected');
    error.mockRestore();
  });
});
