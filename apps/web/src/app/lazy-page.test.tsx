import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { lazyPage } from './lazy-page';

function Hello() {
  return <p>Hello page</p>;
}

describe('lazyPage', () => {
  it('renders a preloaded page in the same render, without its fallback', async () => {
    let loads = 0;
    const Page = lazyPage(async () => {
      loads++;
      return { Hello };
    }, 'Hello');
    await Page.preload();
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Page />
      </Suspense>,
    );
    // No await: the first commit already has the page.
    expect(screen.getByText('Hello page')).toBeInTheDocument();
    expect(screen.queryByText('Loading')).toBeNull();
    expect(loads).toBe(1);
  });

  it('shows the fallback while the chunk loads, then the page; a failed load is asked again', async () => {
    let fail = true;
    const Page = lazyPage(async () => {
      if (fail) throw new Error('chunk failed');
      return { Hello };
    }, 'Hello');
    await expect(Page.preload()).rejects.toThrow('chunk failed');
    fail = false;
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Page />
      </Suspense>,
    );
    expect(screen.getByText('Loading')).toBeInTheDocument();
    expect(await screen.findByText('Hello page')).toBeInTheDocument();
  });
});
