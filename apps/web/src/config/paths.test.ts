import { matchPath } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { homePathFor, paths, returnPathOf, taskPathFor } from './paths';

describe('the paths table', () => {
  it("links to a task's details with its id, which the route's pattern reads back", () => {
    const link = paths.user.taskDetails.to('0b6f-42');
    expect(link).toBe('/user/task-details/0b6f-42');
    expect(matchPath(paths.user.taskDetails.pattern, link)?.params.id).toBe('0b6f-42');
    // An id is one path segment, whatever it holds.
    expect(paths.user.taskDetails.to('a/b')).toBe('/user/task-details/a%2Fb');
  });

  it("gives every task its own link: the admin's task page and edit form, the member's details", () => {
    expect(paths.admin.taskPage.to('t-1')).toBe('/admin/tasks/t-1');
    expect(paths.admin.editTask.to('t-1')).toBe('/admin/tasks/t-1/edit');
    expect(matchPath(paths.admin.editTask.pattern, '/admin/tasks/t-1/edit')?.params.id).toBe('t-1');
    expect(taskPathFor('admin', 't-1')).toBe('/admin/tasks/t-1');
    expect(taskPathFor('member', 't-1')).toBe('/user/task-details/t-1');
  });

  it('lands admins on their dashboard and everyone else on theirs', () => {
    expect(homePathFor('admin')).toBe('/admin/dashboard');
    expect(homePathFor('member')).toBe('/user/dashboard');
    expect(homePathFor(undefined)).toBe('/user/dashboard');
  });

  it('leads back after signing in again to where the person was, an edit form by its own address', () => {
    const at = (pathname: string, state: unknown = null, search = '', hash = '') => ({
      pathname,
      search,
      hash,
      state,
    });
    expect(returnPathOf(at('/admin/tasks', null, '?status=Pending&q=plan', '#top'))).toBe(
      '/admin/tasks?status=Pending&q=plan#top',
    );
    expect(returnPathOf(at('/admin/create-task', { taskId: 't-1' }))).toBe('/admin/tasks/t-1/edit');
    expect(returnPathOf(at('/admin/create-task'))).toBe('/admin/create-task');
    expect(returnPathOf(at('/admin/create-task', { taskId: '' }))).toBe('/admin/create-task');
    expect(returnPathOf(at('/admin/create-task', { taskId: 42 }))).toBe('/admin/create-task');
    expect(returnPathOf(at('/admin/tasks', { taskId: 't-1' }))).toBe('/admin/tasks');
  });
});
