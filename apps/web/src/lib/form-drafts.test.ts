import { afterEach, describe, expect, it } from 'vitest';
import { forgetDraft, keepIfSessionEnds, readDraft } from './form-drafts';
import { announceSessionLost } from './session';

describe('what a form held when the session was lost', () => {
  afterEach(() => sessionStorage.clear());

  it('is stored for the forms open at that moment only, and read back by the same person', () => {
    let title = 'first';
    const release = keepIfSessionEnds('task:new', () => ({ title }));
    const closed = keepIfSessionEnds('task:t1', () => ({ title: 'closed form' }));
    closed();
    title = 'as typed last';
    announceSessionLost('ada');
    expect(readDraft('task:new', 'ada')).toEqual({ title: 'as typed last' });
    expect(readDraft('task:t1', 'ada')).toBeNull();
    release();
  });

  it('is never given to someone else, nor before anyone is signed in', () => {
    const release = keepIfSessionEnds('task:new', () => ({ title: 'private' }));
    announceSessionLost('ada');
    release();
    expect(readDraft('task:new', 'bo')).toBeNull();
    expect(readDraft('task:new', undefined)).toBeNull();
  });

  it('is not stored when nobody was signed in', () => {
    const release = keepIfSessionEnds('task:new', () => ({ title: 'x' }));
    announceSessionLost(undefined);
    release();
    expect(sessionStorage.length).toBe(0);
  });

  it('is forgotten once its form shows it', () => {
    const release = keepIfSessionEnds('task:new', () => ({ title: 'x' }));
    announceSessionLost('ada');
    release();
    forgetDraft('task:new');
    expect(readDraft('task:new', 'ada')).toBeNull();
  });

  it('reads an unreadable entry as nothing', () => {
    sessionStorage.setItem('form-draft:task:new', '{not json');
    expect(readDraft('task:new', 'ada')).toBeNull();
  });
});
