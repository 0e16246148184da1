import { describe, expect, it } from 'vitest';
import { buildPerson, buildTask } from '../../test/factories';
import { newDraftItem } from './checklist-draft';
import { resolveConflict, taskConflicts } from './task-conflict';
import { formFromTask, type TaskFormValues } from './task-form-rules';

describe('the conflict view: what differs between my version and the current one', () => {
  const task = buildTask();
  const base = formFromTask(task);
  const mia = buildPerson({ name: 'Mia' });
  const max = buildPerson({ name: 'Max' });

  it('lists nothing when both versions mean the same', () => {
    const reordered: TaskFormValues = {
      ...base,
      assignees: [...base.assignees].reverse(),
      labels: [...base.labels].reverse(),
      title: `${base.title}  `,
      attachments: [...base.attachments, '  '],
    };
    expect(taskConflicts(base, reordered, base)).toEqual([]);
  });

  it('marks who changed each field and keeps my edits, their other changes', () => {
    const mine: TaskFormValues = { ...base, title: 'My title', priority: 'Low' };
    const theirs: TaskFormValues = {
      ...base,
      title: 'Their title',
      description: 'Their description',
      assignees: [mia, max],
    };
    expect(taskConflicts(base, mine, theirs)).toEqual([
      { field: 'title', changedByMe: true, changedByThem: true, suggested: 'mine' },
      { field: 'description', changedByMe: false, changedByThem: true, suggested: 'theirs' },
      { field: 'priority', changedByMe: true, changedByThem: false, suggested: 'mine' },
      { field: 'assignees', changedByMe: false, changedByThem: true, suggested: 'theirs' },
    ]);
  });

  it('compares checklists by their texts in order', () => {
    const [first, second] = base.checklist;
    const moved = { ...base, checklist: [second!, first!] };
    const ticked = {
      ...base,
      checklist: base.checklist.map((item) => ({ ...item, completed: !item.completed })),
    };
    expect(taskConflicts(base, moved, base).map((c) => c.field)).toEqual(['checklist']);
    expect(taskConflicts(base, ticked, base)).toEqual([]);
  });

  it('resolves field by field, with the current ticks on the checklist', () => {
    const mine: TaskFormValues = {
      ...base,
      title: 'My title',
      checklist: [...base.checklist, newDraftItem('Mine')],
    };
    const current = buildTask({
      _id: task._id,
      title: 'Their title',
      description: 'Their description',
      todoChecklist: task.todoChecklist.map((item) => ({ ...item, completed: true })),
    });
    const theirs = formFromTask(current);
    const resolved = resolveConflict(mine, theirs, current, {
      title: 'mine',
      description: 'theirs',
      checklist: 'mine',
    });
    expect(resolved.title).toBe('My title');
    expect(resolved.description).toBe('Their description');
    expect(resolved.checklist.map((item) => [item.text, item.completed])).toEqual([
      ...task.todoChecklist.map((item) => [item.text, true]),
      ['Mine', false],
    ]);
    expect(resolveConflict(mine, theirs, current, {})).toEqual(theirs);
  });
});
