import { describe, expect, it } from 'vitest';

import { ApiError } from './api-client';
import { fieldOfError } from './use-server-error';

describe('fieldOfError', () => {
  const fields = { email: 'email', password: 'password', newPassword: 'password' } as const;

  it('uses the field the server named, mapped to the form', () => {
    expect(
      fieldOfError(new ApiError('weak-password', 'Too short', 400, 'newPassword'), fields),
    ).toBe('password');
  });

  it('knows the field of codes that name none', () => {
    expect(fieldOfError(new ApiError('email-already-in-use', 'Taken', 409), fields)).toBe('email');
  });

  it('maps a path to the field it starts with', () => {
    const form = { images: 'images', name: 'name' } as const;
    expect(fieldOfError(new ApiError('validation-failed', 'Bad', 400, 'images.0'), form)).toBe(
      'images',
    );
    expect(fieldOfError(new ApiError('validation-failed', 'Bad', 400, 'name'), form)).toBe('name');
    expect(
      fieldOfError(new ApiError('validation-failed', 'Bad', 400, 'toString'), form),
    ).toBeUndefined();
  });

  it('leaves errors about the whole form, and fields the form lacks, to the top of the form', () => {
    expect(fieldOfError(new ApiError('wrong-password', 'No match', 401), fields)).toBeUndefined();
    expect(
      fieldOfError(new ApiError('validation-failed', 'Bad', 400, 'token'), fields),
    ).toBeUndefined();
    expect(fieldOfError(new Error('boom'), fields)).toBeUndefined();
  });
});
