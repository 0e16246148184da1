import { act, fireEvent, screen, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../lib/i18n';
import { buildTask, buildTaskCardList, buildUser } from '../../../test/factories';
import { renderPage } from '../../../test/render-page';
import { stubApi } from '../../../test/stub-api';
import { BoardPage } from './board-page';

const fresh = buildTask({ title: 'Fresh task', status: 'Pending' });
const member = buildUser();

function column(name: string) {
  return screen.getByRole('region', { name: new RegExp(`^${name}`) });
}

afterEach(() => {
  act(() => toast.remove());
});

describe('the board', () => {
  function serve(moveAnswer: { status: number; data: unknown }) {
    let moved = false;
    const stub = stubApi((request) => {
      if (request.method === 'PUT') {
        if (moveAnswer.status === 200) moved = true;
        return moveAnswer;
      }
      const status = request.params?.status;
      const current = moved ? { ...fresh, status: 'In Progress' as const } : fresh;
      return {
        status: 200,
        data: buildTaskCardList(current.status === status ? [current] : []),
      };
    });
    renderPage(<BoardPage />, { path: '/user/board', signedInAs: member });
    return stub;
  }

  it('shows a column per status and moves a card with its menu', async () => {
    const stub = serve({ status: 200, data: { message: 'ok', task: fresh } });
    const pending = column('Pending');
    const card = await within(pending).findByRole('link', { name: 'Fresh task' });
    expect(card).toHaveAttribute('href', `/user/task-details/${fresh._id}`);
    fireEvent.click(screen.getByRole('button', { name: 'Move to... (Fresh task)' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Move to In Progress' }));
    expect(within(column('In Progress')).getByRole('link', { name: 'Fresh task' })).toBeVisible();
    expect(await screen.findByText('“Fresh task” moved to In Progress.')).toBeInTheDocument();
    const put = stub.requests.find((request) => request.method === 'PUT')!;
    expect(put.url).toBe(`/api/tasks/${fresh._id}/status`);
    expect(put.body).toEqual({ status: 'In Progress' });
  });

  it('snaps a refused move back and says why', async () => {
    const reason = 'Every checklist item is done: untick one to move the task back';
    serve({ status: 400, data: { message: reason } });
    await within(column('Pending')).findByRole('link', { name: 'Fresh task' });
    fireEvent.click(screen.getByRole('button', { name: 'Move to... (Fresh task)' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Move to Completed' }));
    // Its open item would be ticked: asked first.
    const dialog = await screen.findByRole('dialog', { name: 'Move to Completed?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Move to Completed' }));
    expect(await screen.findAllByText(new RegExp(reason))).not.toHaveLength(0);
    expect(within(column('Pending')).getByRole('link', { name: 'Fresh task' })).toBeVisible();
    expect(
      within(column('Completed')).queryByRole('link', { name: 'Fresh task' }),
    ).not.toBeInTheDocument();
  });

  it('asks before a move to Pending unticks done items', async () => {
    const started = buildTask({ title: 'Half done', status: 'In Progress' });
    const stub = stubApi((request) => {
      if (request.method === 'PUT') return { status: 200, data: { message: 'ok', task: started } };
      const list = request.params?.status === 'In Progress' ? [started] : [];
      return { status: 200, data: buildTaskCardList(list) };
    });
    renderPage(<BoardPage />, { path: '/admin/board', signedInAs: buildUser({ role: 'admin' }) });
    await within(column('In Progress')).findByRole('link', { name: 'Half done' });
    fireEvent.click(screen.getByRole('button', { name: 'Move to... (Half done)' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Move to Pending' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move to Pending?' });
    expect(dialog).toHaveTextContent('unticks its 1 done checklist item');
    expect(stub.requests.some((request) => request.method === 'PUT')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Move to Pending' }));
    expect(await screen.findByText('“Half done” moved to Pending.')).toBeInTheDocument();
    expect(stub.requests.find((request) => request.method === 'PUT')!.body).toEqual({
      status: 'Pending',
    });
  });
  it('asks before a move to Completed ticks open items; cancelling sends nothing', async () => {
    const started = buildTask({
      title: 'Partly done',
      status: 'In Progress',
      todoChecklist: [
        { _id: 'i1', text: 'One', completed: true },
        { _id: 'i2', text: 'Two', completed: false },
        { _id: 'i3', text: 'Three', completed: false },
      ],
    });
    const stub = stubApi((request) => {
      if (request.method === 'PUT') return { status: 200, data: { message: 'ok', task: started } };
      const list = request.params?.status === 'In Progress' ? [started] : [];
      return { status: 200, data: buildTaskCardList(list) };
    });
    renderPage(<BoardPage />, { path: '/admin/board', signedInAs: buildUser({ role: 'admin' }) });
    await within(column('In Progress')).findByRole('link', { name: 'Partly done' });
    fireEvent.click(screen.getByRole('button', { name: 'Move to... (Partly done)' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Move to Completed' }));
    let dialog = await screen.findByRole('dialog', { name: 'Move to Completed?' });
    expect(dialog).toHaveTextContent('ticks its 2 open checklist items');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(stub.requests.some((request) => request.method === 'PUT')).toBe(false);
    expect(within(column('In Progress')).getByRole('link', { name: 'Partly done' })).toBeVisible();

    fireEvent.click(screen.getByRole('button', { name: 'Move to... (Partly done)' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Move to Completed' }));
    dialog = await screen.findByRole('dialog', { name: 'Move to Completed?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Move to Completed' }));
    expect(await screen.findByText('“Partly done” moved to Completed.')).toBeInTheDocument();
    expect(stub.requests.find((request) => request.method === 'PUT')!.body).toEqual({
      status: 'Completed',
    });
  });
});

describe('the board in German', () => {
  afterEach(() => setLanguage('en'));

  it('names the columns, the menu and the announcement in German', async () => {
    await setLanguage('de');
    stubApi((request) => {
      if (request.method === 'PUT') return { status: 200, data: { message: 'ok', task: fresh } };
      const status = request.params?.status;
      return { status: 200, data: buildTaskCardList(status === 'Pending' ? [fresh] : []) };
    });
    renderPage(<BoardPage />, { path: '/user/board', signedInAs: member });
    expect(screen.getByRole('heading', { name: 'Board', level: 1 })).toBeInTheDocument();
    const open = column('Offen');
    await within(open).findByRole('link', { name: 'Fresh task' });
    expect(column('In Arbeit')).toBeInTheDocument();
    expect(column('Erledigt')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Verschieben nach... (Fresh task)' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Nach In Arbeit verschieben' }));
    expect(
      await screen.findByText('„Fresh task“ wurde nach In Arbeit verschoben.'),
    ).toBeInTheDocument();
  });
});
