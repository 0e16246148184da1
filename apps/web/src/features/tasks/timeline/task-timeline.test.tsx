import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/factories';
import { renderPage } from '../../../test/render-page';
import { stubApi, type RecordedRequest } from '../../../test/stub-api';
import { mentionQueryAt, readMentions } from './comment-box';
import { TaskTimeline } from './task-timeline';

const mentionedIds = (text: string, people: Parameters<typeof readMentions>[1]) =>
  readMentions(text, people).ids;
const unknownMentions = (text: string, people: Parameters<typeof readMentions>[1]) =>
  readMentions(text, people).unknown;

const TASK = '00000000-0000-4000-8000-00000000aaaa';
const ada = buildUser({ name: 'Ada Admin', role: 'admin' });
const mia = {
  _id: '00000000-0000-4000-8000-00000000bbbb',
  name: 'Mia Member',
  profileImageUrl: null,
};

const comment = {
  _id: 'c1',
  taskId: TASK,
  author: { _id: mia._id, name: mia.name, profileImageUrl: null },
  body: 'Looks **good** <script>alert(1)</script>',
  mentions: [],
  createdAt: '2031-01-01T10:05:00.000Z',
  updatedAt: '2031-01-01T10:06:00.000Z',
  edited: true,
  editedAt: '2031-01-01T10:06:00.000Z',
};
const history = [
  {
    _id: 'a1',
    type: 'task.created',
    actor: { ...mia, name: 'Ada Admin' },
    at: '2031-01-01T10:00:00.000Z',
    data: { title: 'Launch' },
    taskId: TASK,
  },
  {
    _id: 'a2',
    type: 'checklist.ticked',
    actor: mia,
    at: '2031-01-01T10:10:00.000Z',
    data: { itemId: 'i', text: 'Draft' },
    taskId: TASK,
  },
  {
    _id: 'a3',
    type: 'status.changed',
    actor: mia,
    at: '2031-01-01T10:10:00.001Z',
    data: { before: 'Pending', after: 'In Progress', reason: 'checklist' },
    taskId: TASK,
  },
  {
    _id: 'a4',
    type: 'comment.added',
    actor: mia,
    at: '2031-01-01T10:05:00.000Z',
    data: { commentId: 'c1' },
    taskId: TASK,
  },
];

function serve(
  extra?: (request: RecordedRequest) => { status: number; data?: unknown } | undefined,
) {
  return stubApi((request) => {
    const answer = extra?.(request);
    if (answer) return answer;
    if (request.url.endsWith('/comments')) return { status: 200, data: [comment] };
    if (request.url.endsWith('/activity')) return { status: 200, data: history };
    if (request.url.endsWith('/people'))
      return { status: 200, data: [mia, { _id: ada._id, name: ada.name, profileImageUrl: null }] };
    return undefined;
  });
}

describe('TaskTimeline', () => {
  it('shows comments and history in time order, comments as Markdown without raw HTML', async () => {
    serve();
    renderPage(<TaskTimeline taskId={TASK} />, { path: '/x', signedInAs: ada });
    const list = await screen.findByRole('list', { name: 'Comments and activity' });
    const items = within(list)
      .getAllByRole('listitem')
      .map((item) => item.textContent ?? '');
    expect(items).toHaveLength(4);
    expect(items[0]).toContain('Ada Admin created the task');
    expect(items[1]).toContain('Looks good <script>alert(1)</script>');
    expect(items[1]).toContain('edited');
    expect(items[2]).toContain('Mia Member ticked “Draft”');
    expect(items[3]).toContain('moved the task to In Progress (by the checklist)');
    expect(list.querySelector('script')).toBeNull();
    expect(within(list).getByText('good').tagName).toBe('STRONG');
  });

  it('offers the people who can see the task after @, and sends the chosen one as a mention', async () => {
    const stub = serve((request) =>
      request.method === 'POST' ? { status: 201, data: { ...comment, _id: 'c2' } } : undefined,
    );
    renderPage(<TaskTimeline taskId={TASK} />, { path: '/x', signedInAs: ada });
    const box = await screen.findByRole('combobox', { name: 'Add a comment' });
    await userEvent.type(box, 'Thanks @mi');
    const option = await screen.findByRole('option', { name: 'Mia Member' });
    await userEvent.click(option);
    expect(box).toHaveValue('Thanks @Mia Member ');
    await userEvent.type(box, 'see the draft');
    await userEvent.click(screen.getByRole('button', { name: 'Comment' }));
    await screen.findByRole('combobox', { name: 'Add a comment' });
    const post = stub.requests.find((request) => request.method === 'POST');
    expect(post).toEqual(
      expect.objectContaining({
        url: `/api/tasks/${TASK}/comments`,
        body: { body: 'Thanks @Mia Member see the draft', mentions: [mia._id] },
      }),
    );
  });

  it('keeps what was typed when posting fails, and says why', async () => {
    serve((request) =>
      request.method === 'POST'
        ? {
            status: 400,
            data: { message: 'Mentions must be people who can see the task', code: 'bad_request' },
          }
        : undefined,
    );
    renderPage(<TaskTimeline taskId={TASK} />, { path: '/x', signedInAs: ada });
    const box = await screen.findByRole('combobox', { name: 'Add a comment' });
    await userEvent.type(box, 'Important words');
    await userEvent.click(screen.getByRole('button', { name: 'Comment' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Mentions must be people who can see the task',
    );
    expect(box).toHaveValue('Important words');
  });
});

describe('mentions in text', () => {
  it('finds the @word before the caret, and keeps only people still named', () => {
    expect(mentionQueryAt('hi @an', 6)).toEqual({ start: 3, query: 'an' });
    expect(mentionQueryAt('mail a@b', 8)).toBeNull();
    expect(
      mentionedIds('@Mia Member and nobody', [mia, { ...mia, _id: 'x', name: 'Max' }]),
    ).toEqual([mia._id]);
  });
});

describe('mentions typed in full', () => {
  const ann = { ...mia, _id: 'ann', name: 'Ann' };
  const annLee = { ...mia, _id: 'ann-lee', name: 'Ann Lee' };

  it('mention whoever can see the task, as a whole name only', () => {
    expect(mentionedIds('Thanks @Ann Lee!', [ann, annLee])).toEqual(['ann-lee']);
    expect(mentionedIds('@Ann, and @Ann Lee', [ann, annLee]).sort()).toEqual(['ann', 'ann-lee']);
    expect(mentionedIds('@Annabel and mail ann@Ann.example', [ann])).toEqual([]);
  });

  it('say which @words name nobody who can see the task', () => {
    expect(
      unknownMentions('@Ann Lee, ask @Bob and @carl.k. Mail bob@example.com', [ann, annLee]),
    ).toEqual(['@Bob', '@carl.k']);
    expect(unknownMentions('@Ann and @Ann Lee and @Bob and @Bob', [ann, annLee])).toEqual(['@Bob']);
    expect(unknownMentions('no mention @ all', [ann])).toEqual([]);
  });
});
