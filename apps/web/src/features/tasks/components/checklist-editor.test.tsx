import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { AttachmentsEditor } from './attachments-editor';
import { ChecklistEditor } from './checklist-editor';

function Checklist({ initial = [] as string[] }) {
  const [items, setItems] = useState(initial);
  return <ChecklistEditor items={items} onChange={setItems} />;
}

function Attachments() {
  const [links, setLinks] = useState<string[]>([]);
  return <AttachmentsEditor links={links} onChange={setLinks} />;
}

function rows(group: string) {
  return within(screen.getByRole('group', { name: group }))
    .queryAllByRole('listitem')
    .map((row) => row.textContent);
}

describe('the TODO Checklist editor', { timeout: 30_000 }, () => {
  it('numbers the items 01, 02, … in the order they were added', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Checklist />);
    const input = screen.getByRole('textbox', { name: 'TODO Checklist' });
    expect(input).toHaveAttribute('placeholder', 'Enter Task');
    await user.type(input, 'Draft the notes');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await user.type(input, 'Tag the build{Enter}');
    expect(rows('TODO Checklist')).toEqual(['01Draft the notes', '02Tag the build']);
    expect(input).toHaveValue('');
  });

  it('ignores blank text', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Checklist initial={['One']} />);
    const input = screen.getByRole('textbox', { name: 'TODO Checklist' });
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await user.type(input, '    ');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(rows('TODO Checklist')).toEqual(['01One']);
  });

  it('removes an item with its named button and numbers the rest again', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Checklist initial={['One', 'Two', 'Three']} />);
    await user.click(screen.getByRole('button', { name: 'Remove item 2' }));
    expect(rows('TODO Checklist')).toEqual(['01One', '02Three']);
  });
});

describe('the Add Attachments editor', { timeout: 30_000 }, () => {
  it('adds links, ignores blanks and removes a link', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Attachments />);
    const input = screen.getByRole('textbox', { name: 'Add Attachments' });
    expect(input).toHaveAttribute('placeholder', 'Add File Link');
    await user.type(input, 'example.com/a{Enter}');
    await user.type(input, '   {Enter}');
    await user.type(input, 'https://b.example.org{Enter}');
    expect(rows('Add Attachments')).toEqual(['example.com/a', 'https://b.example.org']);
    await user.click(screen.getByRole('button', { name: 'Remove attachment 1' }));
    expect(rows('Add Attachments')).toEqual(['https://b.example.org']);
  });
});
