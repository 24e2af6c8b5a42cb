import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { ApiError } from '../../../lib/api-client';
import { renderWithApp } from '../../../testing/render';
import { serverAnswers } from '../../../testing/server-answers';
import { CategoryForm } from './category-form';

/* The admin's category name: the shared schema's rules and words (decision 044). */

function renderForm(onSave = vi.fn((_values: unknown) => Promise.resolve())) {
  serverAnswers({ 'GET /api/categories/icons': { status: 200, body: [] } });
  const view = renderWithApp(
    <CategoryForm
      initial={{ name: '', icon: null }}
      submitLabel="Add category"
      busyLabel="Adding…"
      onSave={onSave}
    />,
  );
  return { ...view, onSave };
}

describe('the category form', () => {
  it('refuses markup beside the name, with the server’s words, and sends nothing', async () => {
    const { user, onSave } = renderForm();
    const name = screen.getByRole('textbox', { name: 'Name' });
    await user.type(name, '<b>Vans</b>');
    await user.click(screen.getByRole('button', { name: 'Add category' }));
    expect(await screen.findByText('A name cannot contain < or >')).toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(onSave).not.toHaveBeenCalled();
  });

  it('sends the name normalized: full-width letters, bidi controls and spaces', async () => {
    const { user, onSave } = renderForm();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), ' Ｃａｍｐｅｒ\u202e   van ');
    await user.click(screen.getByRole('button', { name: 'Add category' }));
    await vi.waitFor(() => expect(onSave).toHaveBeenCalledWith({ name: 'Camper van' }));
  });

  it('shows a look-alike duplicate the server refused beside the name', async () => {
    const onSave = vi.fn(() =>
      Promise.reject(
        new ApiError('conflict', 'There is already a category named “Vans”.', 409, 'name'),
      ),
    );
    const { user } = renderForm(onSave);
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Ｖａｎｓ');
    await user.click(screen.getByRole('button', { name: 'Add category' }));
    expect(
      await screen.findByText('There is already a category named “Vans”.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true');
  });
});
