import { matchPath } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { homePathFor, paths } from './paths';

describe('the paths table', () => {
  it("links to a task's details with its id, which the route's pattern reads back", () => {
    const link = paths.user.taskDetails.to('0b6f-42');
    expect(link).toBe('/user/task-details/0b6f-42');
    expect(matchPath(paths.user.taskDetails.pattern, link)?.params.id).toBe('0b6f-42');
    // An id is one path segment, whatever it holds.
    expect(paths.user.taskDetails.to('a/b')).toBe('/user/task-details/a%2Fb');
  });

  it('lands admins on their dashboard and everyone else on theirs', () => {
    expect(homePathFor('admin')).toBe('/admin/dashboard');
    expect(homePathFor('member')).toBe('/user/dashboard');
    expect(homePathFor(undefined)).toBe('/user/dashboard');
  });
});
