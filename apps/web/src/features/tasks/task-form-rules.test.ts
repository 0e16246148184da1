import { validationMessages as m } from '@task-manager/shared';
import { describe, expect, it } from 'vitest';
import {
  addEntry,
  dueDateToIso,
  emptyTaskForm,
  formFromDraft,
  formFromTask,
  isPastDay,
  itemNumber,
  removeEntry,
  taskFormProblem,
  toTaskPayload,
  toUpdatePayload,
  type TaskFormValues,
} from './task-form-rules';
import { newDraftItem } from './checklist-draft';
import { buildPerson, buildTask } from '../../test/factories';

describe('checklist and attachment entries', () => {
  it('numbers items 01, 02, … with two digits, then as they come', () => {
    expect([0, 1, 8, 9, 99].map(itemNumber)).toEqual(['01', '02', '09', '10', '100']);
  });

  it('ignores blank (trimmed) text and trims what it adds', () => {
    expect(addEntry(['a'], '')).toEqual(['a']);
    expect(addEntry(['a'], '   \t ')).toEqual(['a']);
    expect(addEntry(['a'], '  b  ')).toEqual(['a', 'b']);
  });

  it('removes the entry at a position only', () => {
    expect(removeEntry(['a', 'b', 'a'], 2)).toEqual(['a', 'b']);
  });
});

describe('the task payload', () => {
  const mia = buildPerson({ name: 'Mia' });
  const values: TaskFormValues = {
    title: 'Plan',
    description: 'The plan',
    priority: 'High',
    dueDate: '2031-05-20',
    assignees: [mia],
    checklist: [newDraftItem('Draft')],
    attachments: ['  example.com  ', '   '],
    labels: ['00000000-0000-4000-8000-00000000aaaa'],
  };

  it('sends ids, checklist items with completed, non-empty links and a date-time', () => {
    expect(toTaskPayload(values)).toEqual({
      title: 'Plan',
      description: 'The plan',
      priority: 'High',
      dueDate: '2031-05-20T00:00:00.000Z',
      assignedTo: [mia._id],
      todoChecklist: [{ text: 'Draft', completed: false }],
      attachments: ['example.com'],
      labels: ['00000000-0000-4000-8000-00000000aaaa'],
    });
    expect(taskFormProblem(toTaskPayload(values))).toBeNull();
  });

  it('sends stored items by id without a flag (their ticks stay), new items open (edit mode)', () => {
    const checklist = [
      { key: 'b', _id: 'b', text: 'Review again', completed: true },
      newDraftItem('Ship'),
    ];
    expect(toTaskPayload({ ...values, checklist }).todoChecklist).toEqual([
      { _id: 'b', text: 'Review again' },
      { text: 'Ship', completed: false },
    ]);
  });

  it('sends the picked day as midnight UTC, whatever the time zone', () => {
    expect(dueDateToIso('2031-05-20')).toBe('2031-05-20T00:00:00.000Z');
    expect(dueDateToIso('')).toBe('');
    // Anything else is sent as typed, for the schema to refuse with its message.
    expect(dueDateToIso('next week')).toBe('next week');
  });

  it('reports the first broken rule in the spec order', () => {
    const steps: [Partial<TaskFormValues>, string | null][] = [
      [{}, m.titleRequired],
      [{ title: '   ' }, m.titleRequired],
      [{ title: 'Plan' }, m.descriptionRequired],
      [{ description: 'The plan' }, m.dueDateRequired],
      [{ dueDate: '2031-05-20' }, m.notAssigned],
      [{ assignees: [mia] }, m.todoRequired],
      [{ checklist: [newDraftItem('Draft')] }, null],
    ];
    let filled: TaskFormValues = emptyTaskForm;
    for (const [change, message] of steps) {
      filled = { ...filled, ...change };
      expect(taskFormProblem(toTaskPayload(filled))).toBe(message);
    }
  });

  it('fills the form from a stored task for edit mode', () => {
    const task = buildTask({ dueDate: '2031-03-15T00:00:00.000Z', attachments: ['x.org'] });
    expect(formFromTask(task)).toMatchObject({
      title: task.title,
      priority: 'High',
      dueDate: '2031-03-15',
      assignees: [{ _id: task.assignedTo[0]!._id, name: 'Mia Member' }],
      checklist: task.todoChecklist.map(({ _id, text, completed }) => ({
        key: _id,
        _id,
        text,
        completed,
      })),
      attachments: ['x.org'],
    });
  });
});

describe('the payload of an edit', () => {
  it('keeps a stored due time while the day is unchanged, and sends a new day at midnight UTC', () => {
    const stored = buildTask({ dueDate: '2026-12-05T22:05:17.024Z' });
    const values = { ...formFromTask(stored), priority: 'High' as const };
    expect(values.dueDate).toBe('2026-12-05');
    expect(toUpdatePayload(values, stored).dueDate).toBe('2026-12-05T22:05:17.024Z');
    expect(toUpdatePayload(values, stored).priority).toBe('High');
    const moved = { ...values, dueDate: '2026-12-06' };
    expect(toUpdatePayload(moved, stored).dueDate).toBe('2026-12-06T00:00:00.000Z');
  });
});

describe('isPastDay', () => {
  const now = new Date(2031, 4, 20, 9, 30); // 20 May 2031, local time
  it('is true only for a day before today where the person is', () => {
    expect(isPastDay('2031-05-19', now)).toBe(true);
    expect(isPastDay('2031-05-19T00:00:00.000Z', now)).toBe(true);
    expect(isPastDay('2031-05-20', now)).toBe(false);
    expect(isPastDay('2031-06-01', now)).toBe(false);
    expect(isPastDay('', now)).toBe(false);
  });
});

describe('a task form kept when the session ended, read back', () => {
  it('gives back the values as typed, items not stored yet under fresh keys', () => {
    const typed: TaskFormValues = {
      title: 'Plan the release',
      description: 'Dates and owners',
      priority: 'High',
      dueDate: '2031-05-20',
      assignees: [{ _id: 'u1', name: 'Mia', email: 'mia@example.com', profileImageUrl: null }],
      checklist: [
        { key: 'i1', _id: 'i1', text: 'Stored item', completed: true },
        newDraftItem('Typed item'),
      ],
      attachments: ['https://example.com/spec'],
      labels: ['l1'],
    };
    const back = formFromDraft(JSON.parse(JSON.stringify(typed)));
    expect(back).toEqual({
      ...typed,
      checklist: [
        typed.checklist[0],
        { key: expect.any(String), text: 'Typed item', completed: false },
      ],
    });
    expect(back!.checklist[1]!.key).not.toBe(typed.checklist[1]!.key);
  });

  it("drops what does not have the form's shape instead of trusting it", () => {
    expect(formFromDraft(null)).toBeNull();
    expect(formFromDraft('a title')).toBeNull();
    expect(formFromDraft({ description: 'no title' })).toBeNull();
    expect(
      formFromDraft({
        title: 'Kept',
        priority: 'Urgent',
        dueDate: 'next friday',
        assignees: [{ name: 'no id' }, 'u2'],
        checklist: [{ completed: true }, { text: 'Item' }],
        attachments: ['https://a.example', 7],
        labels: 'l1',
      }),
    ).toEqual({
      ...emptyTaskForm,
      title: 'Kept',
      checklist: [{ key: expect.any(String), text: 'Item', completed: false }],
      attachments: ['https://a.example'],
    });
  });
});
