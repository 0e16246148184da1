import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { FrameSkeleton, isSignedInPath, RouteFallback } from './frame-skeleton';

const at = (path: string, node: React.ReactNode) =>
  render(<MemoryRouter initialEntries={[path]}>{node}</MemoryRouter>);

describe('the frame while a page loads', () => {
  it('a signed-in path draws the top bar, the menu and the page shape at once', () => {
    at('/admin/tasks', <RouteFallback signedOut={<p>spinner</p>} />);
    expect(screen.getByRole('banner')).toHaveTextContent('Task Manager');
    expect(screen.getByRole('main')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    expect(screen.queryByText('spinner')).not.toBeInTheDocument();
  });

  it("a dashboard's frame holds the dashboard's own skeleton", () => {
    at('/user/dashboard', <FrameSkeleton />);
    expect(screen.getByRole('status', { name: 'Loading dashboard' })).toBeInTheDocument();
  });

  it("Team Members' frame holds a grid of member cards", () => {
    const { container } = at('/admin/users', <FrameSkeleton />);
    expect(container.querySelectorAll('main .grid > div')).toHaveLength(6);
  });

  it('the sign-in pages have no frame: they show what they are given', () => {
    at('/login', <RouteFallback signedOut={<p>spinner</p>} />);
    expect(screen.getByText('spinner')).toBeInTheDocument();
    expect(screen.queryByRole('banner')).not.toBeInTheDocument();
  });

  it('knows which paths are signed in', () => {
    for (const path of ['/admin/dashboard', '/admin/tasks', '/user/task-details/1', '/profile'])
      expect(isSignedInPath(path), path).toBe(true);
    for (const path of ['/', '/login', '/signup', '/forgot-password', '/reset-password'])
      expect(isSignedInPath(path), path).toBe(false);
  });
});
