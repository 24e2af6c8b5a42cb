import type { CategorySummary } from '@carmarket/shared';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import { serverAnswers } from '../../../testing/server-answers';
import { ListingForm } from './listing-form';

/*
 * The add-a-car form's states (moved from selling.spec.ts): what each empty field says, Add car
 * waiting for the photos, a file the server refuses, more photos than a car can have, the cover.
 * The photos upload through XMLHttpRequest (for its progress): a stand-in below holds each upload
 * until the test answers it, as the server would.
 */

class HeldUpload {
  static sent: HeldUpload[] = [];
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  status = 0;
  responseText = '';
  withCredentials = false;
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  file: File | null = null;
  open() {}
  setRequestHeader() {}
  send(form: FormData) {
    this.file = form.get('image') as File;
    HeldUpload.sent.push(this);
  }
  abort() {
    this.onabort?.();
  }
  /** The server's answer to this upload. */
  async answer(status: number, body: unknown) {
    await act(async () => {
      this.status = status;
      this.responseText = JSON.stringify(body);
      this.onload?.();
    });
  }
  /** Uploaded: the server's stored photo. */
  async uploaded() {
    const name = this.file!.name;
    await this.answer(201, {
      data: { url: `/uploads/${name}`, thumbUrl: `/uploads/thumb-${name}`, width: 64, height: 48 },
    });
  }
}

const uploadOf = (name: string) => HeldUpload.sent.find((upload) => upload.file?.name === name)!;

const categories: CategorySummary[] = [
  { _id: 'c1', name: 'Electric car' } as CategorySummary,
  { _id: 'c2', name: 'Van' } as CategorySummary,
];

beforeEach(() => {
  HeldUpload.sent = [];
  vi.stubGlobal('XMLHttpRequest', HeldUpload);
  serverAnswers({ 'GET /api/category': { status: 200, body: categories } });
});

const png = (name: string) =>
  new File([new Uint8Array([137, 80, 78, 71])], name, { type: 'image/png' });

function renderForm() {
  const onSave = vi.fn(async () => {});
  const rendered = renderWithApp(
    <ListingForm submitLabel="Add car" busyLabel="Adding…" onSave={onSave} />,
  );
  const choose = (files: File[]) =>
    act(() => {
      fireEvent.change(screen.getByLabelText('Add photos'), { target: { files } });
    });
  const photosField = () => screen.getByRole('group', { name: 'Photos' });
  return { ...rendered, onSave, choose, photosField };
}

describe('adding a car', () => {
  it('sent empty, each field says what it needs, and the first one takes the focus', async () => {
    const { user, onSave } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Add car' }));
    const name = screen.getByRole('textbox', { name: 'Name' });
    await vi.waitFor(() => expect(name).toHaveFocus());
    expect(name).toHaveAttribute('aria-invalid', 'true');
    // Make, Model and Condition are selects, whose first option happy-dom takes as chosen: their
    // words are checked on the schema (listing-form-schema.test.ts), the same messages.
    for (const message of [
      'Name is required',
      'Category is required',
      'Price is required',
      'Mileage is required',
      'Description is required',
      'Image is required',
    ]) {
      expect(screen.getByText(message, { exact: true })).toBeInTheDocument();
    }
    // The message is the field's description, so a screen reader says it with the field.
    expect(name).toHaveAccessibleDescription(expect.stringMatching(/^Name is required/));
    expect(onSave).not.toHaveBeenCalled();
  });

  it('Add car waits for the photos still uploading, says why, and the photos then fill the form', async () => {
    const { user, choose } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Add car' }));
    expect(await screen.findByText('Image is required', { exact: true })).toBeInTheDocument();

    choose([png('front.png'), png('side.png')]);
    expect(screen.getAllByTestId('photo-item')).toHaveLength(2);
    expect(screen.getAllByRole('progressbar', { name: /^Uploading photo/ })).toHaveLength(2);
    const addCar = screen.getByRole('button', { name: 'Add car' });
    expect(addCar).toBeDisabled();
    expect(addCar).toHaveAccessibleDescription('Wait until 2 photos have finished uploading.');

    await uploadOf('front.png').uploaded();
    expect(addCar).toHaveAccessibleDescription('Wait until the photo has finished uploading.');
    await uploadOf('side.png').uploaded();
    expect(
      within(screen.getByRole('group', { name: 'Photos' })).getAllByText('Uploaded'),
    ).toHaveLength(2);
    expect(addCar).toBeEnabled();
    await vi.waitFor(() =>
      expect(screen.queryByText('Image is required', { exact: true })).not.toBeInTheDocument(),
    );
  });

  it('the second photo made the cover goes first, and the first becomes photo 2', async () => {
    const { user, choose } = renderForm();
    choose([png('front.png'), png('side.png')]);
    await uploadOf('front.png').uploaded();
    await uploadOf('side.png').uploaded();
    await user.click(screen.getByRole('button', { name: 'Make photo 2 the cover' }));
    expect(screen.getByRole('img', { name: 'Photo 1 (cover): side.png' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Photo 2: front.png' })).toBeInTheDocument();
  });

  it('a file named .jpg that is no photo says why the server refused it and offers only Remove; the count follows the uploads (rough edge 9)', async () => {
    const { user, choose, photosField } = renderForm();
    const notAPhoto = new File(['Meeting notes, saved with the wrong name.'], 'not-a-photo.jpg', {
      type: 'image/jpeg',
    });
    choose([notAPhoto, png('fast.png'), png('slow.png')]);
    const status = within(photosField()).getByRole('status');
    expect(screen.getAllByTestId('photo-item')).toHaveLength(3);
    expect(status).toHaveTextContent(/^Uploading 3 photos\./);

    // The server reads the bytes, not the name.
    await uploadOf('not-a-photo.jpg').answer(415, {
      error: {
        code: 'unsupported-media-type',
        message: 'This file is not a JPEG, PNG, WebP or AVIF photo, whatever its name says.',
        field: 'image',
      },
    });
    await uploadOf('fast.png').uploaded();
    const items = () => screen.getAllByTestId('photo-item');
    const refused = items().find((item) => item.textContent?.includes('not-a-photo.jpg'))!;
    expect(refused).toHaveTextContent(
      'Refused: This file is not a JPEG, PNG, WebP or AVIF photo, whatever its name says.',
    );
    const fast = items().find((item) => within(item).queryByRole('img', { name: /fast\.png/ }))!;
    expect(fast).toHaveTextContent('Uploaded');
    // One done, one in flight: the count is of the upload still going.
    expect(status).toHaveTextContent(/^Uploading 1 photo\. /);

    // The browser cannot draw it: "No preview" in place of a broken picture, and no Cover badge.
    const preview = refused.querySelector('img');
    if (preview) fireEvent.error(preview);
    expect(within(refused).queryByRole('img')).not.toBeInTheDocument();
    expect(within(refused).getByText('No preview')).toBeInTheDocument();
    expect(within(refused).queryByText('Cover', { exact: true })).not.toBeInTheDocument();
    expect(within(fast).getByText('Cover', { exact: true })).toBeInTheDocument();
    // It goes after the car's photos, which keep their numbers; no Try again, only Remove.
    expect(screen.getByRole('img', { name: 'Photo 1 (cover): fast.png' })).toBeInTheDocument();
    expect(items().at(-1)).toBe(refused);
    expect(
      within(refused)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Remove']);

    await uploadOf('slow.png').uploaded();
    // Once all have ended, the status says them all: the count, and the one refused.
    expect(status).toHaveTextContent(/^2 photos uploaded\. not-a-photo\.jpg was not uploaded: /);
    await user.click(within(refused).getByRole('button', { name: 'Remove not-a-photo.jpg' }));
    expect(items()).toHaveLength(2);
    expect(status).toHaveTextContent('not-a-photo.jpg removed.');
    expect(screen.getByRole('img', { name: 'Photo 1 (cover): fast.png' })).toBeInTheDocument();
  });

  it('21 photos chosen at once: the one past 20 is named as not added, and the status counts the 20 uploaded', async () => {
    const { choose, photosField } = renderForm();
    choose(Array.from({ length: 21 }, (_, index) => png(`p${index + 1}.png`)));
    const notAdded = '1 photo not added: a car can have at most 20 (p21.png).';
    expect(screen.getAllByTestId('photo-item')).toHaveLength(20);
    expect(HeldUpload.sent).toHaveLength(20);
    expect(within(photosField()).getByText(notAdded, { exact: true })).toBeInTheDocument();
    for (const upload of HeldUpload.sent) await upload.uploaded();
    expect(within(photosField()).getByRole('status')).toHaveTextContent(/^20 photos uploaded\./);
    // Still said once the uploads have ended, and no more can be chosen.
    expect(within(photosField()).getByText(notAdded, { exact: true })).toBeInTheDocument();
    expect(screen.getByLabelText('Add photos')).toBeDisabled();
  });
});
