import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../../lib/i18n';
import { ItemAdder } from './task-form-item-adder';

function renderAdder(onAdd = vi.fn()) {
  render(
    <>
      <span id="legend">Attachments</span>
      <ItemAdder labelledBy="legend" placeholder="Add File Link" onAdd={onAdd} />
    </>,
  );
  return onAdd;
}

afterEach(async () => {
  await setLanguage('en');
});

describe('the Add button under the checklist and the attachments', () => {
  it("reads 'Add' in English and adds what was typed", async () => {
    const user = userEvent.setup({ delay: null });
    const onAdd = renderAdder();
    await user.type(screen.getByRole('textbox', { name: 'Attachments' }), 'example.com');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(onAdd).toHaveBeenCalledWith('example.com');
  });

  it("reads 'Hinzufügen' in German", async () => {
    await setLanguage('de');
    renderAdder();
    expect(screen.getByRole('button', { name: 'Hinzufügen' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add' })).toBeNull();
  });
});
