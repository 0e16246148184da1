import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { AttachmentsEditor } from './attachments-editor';
import type { ChecklistDraftItem } from '../checklist-draft';
import { ChecklistEditor } from './checklist-editor';

function Checklist({
  initial = [] as ChecklistDraftItem[],
  tickedBy,
}: {
  initial?: ChecklistDraftItem[];
  tickedBy?: ReadonlyMap<string, string>;
}) {
  const [items, setItems] = useState(initial);
  return <ChecklistEditor items={items} onChange={setItems} tickedBy={tickedBy} />;
}

const stored = (...texts: string[]) =>
  texts.map((text, index) => ({ key: `id-${index}`, _id: `id-${index}`, text, completed: false }));

function Attachments() {
  const [links, setLinks] = useState<string[]>([]);
  return <AttachmentsEditor links={links} onChange={setLinks} />;
}

function rows(group: string) {
  return within(screen.getByRole('group', { name: group }))
    .queryAllByRole('listitem')
    .map((row) => row.textContent);
}

/** The checklist's item texts in order, as their boxes hold them. */
function itemTexts() {
  return within(screen.getByRole('group', { name: 'TODO Checklist' }))
    .queryAllByRole('textbox', { name: /^Checklist item/ })
    .map((input) => (input as HTMLInputElement).value);
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
    expect(itemTexts()).toEqual(['Draft the notes', 'Tag the build']);
    expect(rows('TODO Checklist').map((row) => row?.slice(0, 2))).toEqual(['01', '02']);
    expect(input).toHaveValue('');
  });

  it('ignores blank text', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Checklist initial={stored('One')} />);
    const input = screen.getByRole('textbox', { name: 'TODO Checklist' });
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await user.type(input, '    ');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(itemTexts()).toEqual(['One']);
  });

  it('removes an item with its named button and numbers the rest again', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Checklist initial={stored('One', 'Two', 'Three')} />);
    await user.click(screen.getByRole('button', { name: 'Remove item 2' }));
    expect(itemTexts()).toEqual(['One', 'Three']);
  });

  it('renames an item in place; a ticked one says so, and by whom', async () => {
    const user = userEvent.setup({ delay: null });
    const items = stored('Draft', 'Review').map((item, index) => ({
      ...item,
      completed: index === 0,
    }));
    render(<Checklist initial={items} tickedBy={new Map([['id-0', 'Mia Member']])} />);
    const first = screen.getByRole('textbox', { name: 'Checklist item 1' });
    await user.clear(first);
    await user.type(first, 'First draft');
    expect(itemTexts()).toEqual(['First draft', 'Review']);
    expect(rows('TODO Checklist')[0]).toContain('Done, ticked by Mia Member');
    expect(rows('TODO Checklist')[1]).not.toContain('Done');
  });

  it('moves items with the arrow keys on the handle and with the buttons, and says so', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Checklist initial={stored('A', 'B', 'C')} />);
    const handle = screen.getByRole('button', { name: 'Move “A”' });
    expect(handle).toHaveAccessibleDescription(/arrow key/);
    handle.focus();
    await user.keyboard('{ArrowDown}');
    expect(itemTexts()).toEqual(['B', 'A', 'C']);
    // Focus stays on the moved item's handle, so it can go on moving.
    expect(screen.getByRole('button', { name: 'Move “A”' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(itemTexts()).toEqual(['B', 'C', 'A']);
    expect(screen.getByText('“A” moved to position 3 of 3.')).toBeInTheDocument();
    await user.keyboard('{ArrowDown}');
    expect(itemTexts()).toEqual(['B', 'C', 'A']);

    expect(screen.getByRole('button', { name: 'Move “B” up' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Move “A” up' }));
    expect(itemTexts()).toEqual(['B', 'A', 'C']);
    expect(screen.getByRole('button', { name: 'Move “A” up' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Move “B” down' }));
    expect(itemTexts()).toEqual(['A', 'B', 'C']);
    expect(screen.getByText('“B” moved to position 2 of 3.')).toBeInTheDocument();
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
