import { act, fireEvent, screen, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/factories';
import { renderPage } from '../../../test/render-page';
import { stubApi } from '../../../test/stub-api';
import { LabelsPage } from './labels-page';

const admin = buildUser({ role: 'admin' });
const backend = { _id: '00000000-0000-4000-8000-00000000bbbb', name: 'Backend', color: '#1d4ed8' };

afterEach(() => {
  act(() => toast.remove());
});

describe('the label manager', () => {
  it('adds a label with the shared rules, and says the server refusal', async () => {
    const stub = stubApi((request) => {
      if (request.method === 'GET') return { status: 200, data: [backend] };
      if ((request.body as { name: string }).name === 'Backend')
        return { status: 409, data: { message: 'A label with this name exists' } };
      return { status: 201, data: { _id: 'x', ...(request.body as object) } };
    });
    renderPage(<LabelsPage />, { path: '/admin/labels', signedInAs: admin });
    expect(await screen.findByDisplayValue('Backend')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Add label' }));
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(stub.requests.filter((request) => request.method === 'POST')).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Label name'), { target: { value: 'Backend' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add label' }));
    expect(await screen.findByText('A label with this name exists')).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('Label name'), { target: { value: 'Frontend' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add label' }));
    expect(await screen.findByText('Label added')).toBeInTheDocument();
    expect(stub.requests.filter((request) => request.method === 'POST').at(-1)!.body).toEqual({
      name: 'Frontend',
      color: '#2563eb',
    });
  });

  it('renames a label and deletes one after confirming', async () => {
    const stub = stubApi((request) => {
      if (request.method === 'GET' && request.url === '/api/tasks')
        return {
          status: 200,
          data: {
            tasks: [],
            nextCursor: null,
            statusSummary: { all: 12, pendingTasks: 5, inProgressTasks: 4, completedTasks: 3 },
          },
        };
      if (request.method === 'GET') return { status: 200, data: [backend] };
      if (request.method === 'PUT') return { status: 200, data: { ...backend, name: 'API' } };
      return { status: 200, data: { message: 'Label deleted' } };
    });
    renderPage(<LabelsPage />, { path: '/admin/labels', signedInAs: admin });
    const name = await screen.findByLabelText('Name of Backend');
    fireEvent.change(name, { target: { value: 'API' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Label saved')).toBeInTheDocument();
    const put = stub.requests.find((request) => request.method === 'PUT')!;
    expect(put.url).toBe(`/api/labels/${backend._id}`);
    expect(put.body).toEqual({ name: 'API' });

    fireEvent.click(screen.getByRole('button', { name: 'Delete Backend' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Label' });
    // It says how many tasks lose the label, counted by the task list filtered by it.
    expect(await within(dialog).findByText('12 tasks have it.')).toBeInTheDocument();
    const count = stub.requests.find((request) => request.url === '/api/tasks')!;
    expect(count.params).toMatchObject({ label: backend._id, limit: 1 });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Label deleted')).toBeInTheDocument();
    expect(stub.requests.some((request) => request.method === 'DELETE')).toBe(true);
  });

  it('keeps the row, its field and its focus through a save', async () => {
    let stored = backend;
    stubApi((request) => {
      if (request.method === 'GET') return { status: 200, data: [stored] };
      stored = { ...stored, ...(request.body as object) };
      return { status: 200, data: stored };
    });
    renderPage(<LabelsPage />, { path: '/admin/labels', signedInAs: admin });
    const name = await screen.findByLabelText('Name of Backend');
    name.focus();
    fireEvent.change(name, { target: { value: 'API' } });
    fireEvent.submit(name.closest('form')!);
    expect(await screen.findByText('Label saved')).toBeInTheDocument();
    // The list is fetched again with the new name: the same field, still focused.
    expect(await screen.findByLabelText('Name of API')).toBe(name);
    expect(document.activeElement).toBe(name);
    expect(name).toHaveValue('API');
  });
});
