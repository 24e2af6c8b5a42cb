import { ProfileFormSchema, type ProfileFormInput } from '@carmarket/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useRef, useState, type ChangeEvent } from 'react';

import { ApiForm, useApiForm } from '../../../components/ui/api-form';
import { Field } from '../../../components/ui/field';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { photoProblem, PHOTO_TYPES } from '../../../lib/upload-photo';
import type { Session } from '../../auth';
import { useSetProfilePhoto } from '../api/profile-photo';
import { useUpdateProfile } from '../api/update-profile';
import { SettingsSection } from './section';

/** The person's photo, or their initials in a circle when they have none. */
export function Avatar({ user, size = 'size-20' }: { user: Session['user']; size?: string }) {
  if (user.image) {
    return (
      <img
        src={user.image}
        alt="Your profile photo"
        className={`${size} shrink-0 rounded-full border border-base-300 object-cover`}
      />
    );
  }
  const initials = user.name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join('');
  return (
    <span
      aria-hidden="true"
      className={`${size} grid shrink-0 place-items-center rounded-full bg-primary-soft text-2xl font-bold text-primary`}
    >
      {initials || '?'}
    </span>
  );
}

function PhotoControl({ user }: { user: Session['user'] }) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const setPhoto = useSetProfilePhoto();
  const remove = useUpdateProfile();
  const [problem, setProblem] = useState<string | null>(null);
  const busy = setPhoto.isPending || remove.isPending;

  function handleChoose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const wrong = photoProblem(file);
    setProblem(wrong);
    if (wrong) return;
    setPhoto.mutate(file, {
      onSuccess: () => toast.success('Your profile photo is saved.'),
      onError: (error) => setProblem(errorMessage(error)),
    });
  }

  function handleRemove() {
    setProblem(null);
    remove.mutate(
      { image: null },
      {
        onSuccess: () => toast.success('Your profile photo was removed.'),
        onError: (error) => setProblem(errorMessage(error)),
      },
    );
  }

  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
      <Avatar user={user} />
      <div>
        <div className="flex flex-wrap gap-3">
          {/* The file input is the control; its label is what people see and press. */}
          <input
            ref={input}
            id={inputId}
            type="file"
            accept={PHOTO_TYPES.join(',')}
            className="peer sr-only"
            onChange={handleChoose}
            disabled={busy}
            aria-describedby={`${inputId}-hint${problem ? ` ${inputId}-problem` : ''}`}
          />
          <label
            htmlFor={inputId}
            className={`button button-outline button-sm peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-primary ${busy ? 'pointer-events-none opacity-60' : 'cursor-pointer'}`}
          >
            {setPhoto.isPending ? 'Uploading…' : user.image ? 'Change photo' : 'Add a photo'}
          </label>
          {user.image && (
            <button
              type="button"
              className="button button-ghost button-sm"
              onClick={handleRemove}
              disabled={busy}
            >
              {remove.isPending ? 'Removing…' : 'Remove photo'}
            </button>
          )}
        </div>
        <p id={`${inputId}-hint`} className="field-hint">
          JPEG, PNG, WebP or AVIF, at most 10 MB. We remove the photo&apos;s hidden details (such as
          where it was taken).
        </p>
        {problem && (
          <p id={`${inputId}-problem`} role="alert" className="field-error">
            {problem}
          </p>
        )}
      </div>
    </div>
  );
}

/** Name and phone (the phone fills in the booking form), and the profile photo. */
export function ProfileSection({ user }: { user: Session['user'] }) {
  const update = useUpdateProfile();
  const profileForm = useApiForm<ProfileFormInput>({
    resolver: zodResolver(ProfileFormSchema),
    defaultValues: { name: user.name, phone: user.phone ?? '' },
    fields: { name: 'name', phone: 'phone' },
    send: (values) => update.mutateAsync({ name: values.name, phone: values.phone || null }),
    onSent: (values) => {
      profileForm.form.reset(values);
      toast.success('Your profile is saved.');
    },
  });
  const { register } = profileForm.form;
  const { errors } = profileForm;

  return (
    <SettingsSection
      id="profile"
      title="Profile"
      intro="Sellers see your name when you book; your phone number fills in the booking form."
    >
      <PhotoControl user={user} />
      <ApiForm
        form={profileForm}
        className="mt-6"
        submit={{ label: 'Save profile', busyLabel: 'Saving…' }}
      >
        <Field label="Name" error={errors.name?.message}>
          {(control) => (
            <input
              {...control}
              {...register('name')}
              autoComplete="name"
              className="input w-full"
            />
          )}
        </Field>
        <Field
          label="Phone (optional)"
          hint="Digits, spaces, dashes and a leading +, e.g. +1 555 010 2030."
          error={errors.phone?.message}
        >
          {(control) => (
            <input
              {...control}
              {...register('phone')}
              type="tel"
              autoComplete="tel"
              className="input w-full"
            />
          )}
        </Field>
      </ApiForm>
    </SettingsSection>
  );
}
