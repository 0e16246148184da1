import { afterEach, describe, expect, it, vi } from 'vitest';
import { guardBackButton, releaseBackButton, type GuardedForm } from './back-button-guard';

/** An entry as react-router's BrowserRouter writes it: its key and its index. */
function visit(path: string, key: string, idx: number) {
  window.history.pushState({ usr: null, key, idx }, '', path);
}

const state = () => window.history.state as Record<string, unknown> | null;
const path = () => window.location.pathname;
/** Lets the microtask that takes a guard away run. */
const settle = () => Promise.resolve();

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the Back button on a changed form', () => {
  it('keeps a guard entry with the same URL and key; Back asks, staying keeps the guard', async () => {
    visit('/tasks', 'list', 1);
    visit('/tasks/1/edit', 'form', 2);
    const form: GuardedForm = { question: 'Leave?' };
    guardBackButton(form);
    expect(path()).toBe('/tasks/1/edit');
    expect(state()).toMatchObject({ key: 'form', idx: 2 });

    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    window.history.back();
    await vi.waitFor(() => expect(confirm).toHaveBeenCalledWith('Leave?'));
    // Stayed: the guard is back on top, over the form's own entry.
    expect(path()).toBe('/tasks/1/edit');
    expect(state()).toMatchObject({ key: 'form', idx: 2 });
    expect(state()).toHaveProperty('unsavedChangesGuard');

    // Leaving goes back once more, to the page before the form.
    confirm.mockReturnValue(true);
    window.history.back();
    await vi.waitFor(() => expect(path()).toBe('/tasks'));
    expect(confirm).toHaveBeenCalledTimes(2);
    releaseBackButton(form);
    await settle();
    expect(path()).toBe('/tasks');
  });

  it('takes the guard away when the form becomes clean, so one Back leaves it', async () => {
    visit('/tasks', 'list', 1);
    visit('/tasks/1/edit', 'form', 2);
    const form: GuardedForm = { question: 'Leave?' };
    guardBackButton(form);
    releaseBackButton(form);
    await settle();
    await vi.waitFor(() => expect(state()).not.toHaveProperty('unsavedChangesGuard'));
    expect(state()).toEqual({ usr: null, key: 'form', idx: 2 });

    const confirm = vi.spyOn(window, 'confirm');
    window.history.back();
    await vi.waitFor(() => expect(path()).toBe('/tasks'));
    expect(confirm).not.toHaveBeenCalled();
  });

  it('keeps the guard when another form takes over in the same render', async () => {
    visit('/tasks/1/edit', 'form', 2);
    const editor: GuardedForm = { question: 'Leave?' };
    const conflict: GuardedForm = { question: 'Leave?' };
    guardBackButton(editor);
    const guarded = state();
    releaseBackButton(editor);
    guardBackButton(conflict);
    await settle();
    expect(state()).toBe(guarded);
    releaseBackButton(conflict);
    await settle();
    await vi.waitFor(() => expect(state()).not.toHaveProperty('unsavedChangesGuard'));
  });

  it('steps over a guard left behind when Back comes to it from a later page', async () => {
    visit('/tasks', 'list', 1);
    visit('/tasks/1/edit', 'form', 2);
    const form: GuardedForm = { question: 'Leave?' };
    guardBackButton(form);
    // A link was followed after "leave": the router pushes over the guard, the form unmounts.
    visit('/dashboard', 'dash', 3);
    releaseBackButton(form);
    await settle();

    const confirm = vi.spyOn(window, 'confirm');
    window.history.back();
    // On the form's own entry, not the guard: the next Back leaves the form's URL.
    await vi.waitFor(() => expect(state()).toEqual({ usr: null, key: 'form', idx: 2 }));
    window.history.back();
    await vi.waitFor(() => expect(path()).toBe('/tasks'));
    expect(confirm).not.toHaveBeenCalled();
  });
});
