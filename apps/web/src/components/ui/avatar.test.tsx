import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AvatarStack } from './avatar';

describe('Avatar', () => {
  it('names each person on hover (title) and to screen readers, a deactivated one marked so', () => {
    render(
      <AvatarStack
        people={[
          { name: 'Ana Active', profileImageUrl: null },
          { name: 'Dan Gone', profileImageUrl: '/api/images/x', deactivated: true },
        ]}
      />,
    );
    expect(screen.getByRole('img', { name: 'Ana Active' })).toHaveAttribute('title', 'Ana Active');
    const gone = screen.getByRole('img', { name: 'Dan Gone (deactivated)' });
    expect(gone).toHaveAttribute('title', 'Dan Gone (deactivated)');
    expect(gone.className).toContain('opacity-50');
  });
});
