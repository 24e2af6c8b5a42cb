import type { UploadResult } from '@carmarket/shared';

import { API_BASE, ApiError, apiErrorOf, apiHooks, networkError } from './api-client';

export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/avif'] as const;
export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;

export type UploadedPhoto = UploadResult['data'];

/** Checked before sending, so that a wrong file is refused at once; the server checks again. */
export function photoProblem(file: File): string | null {
  if (!(PHOTO_TYPES as readonly string[]).includes(file.type)) {
    return 'This file is not a JPEG, PNG, WebP or AVIF photo.';
  }
  if (file.size > MAX_PHOTO_BYTES) return 'Photos can be at most 10 MB.';
  return null;
}

function errorOf(xhr: XMLHttpRequest): ApiError {
  let body: unknown;
  try {
    body = JSON.parse(xhr.responseText) as unknown;
  } catch {
    // Not JSON (e.g. a proxy's page): the error is named by its status.
  }
  if (xhr.status === 413) return apiErrorOf(413, body, 'Photos can be at most 10 MB.');
  if (xhr.status === 429)
    return apiErrorOf(429, body, 'Too many uploads for now. Try again later.');
  return apiErrorOf(xhr.status, body, 'The photo could not be uploaded. Please try again.');
}

/**
 * Whether sending the same file again could succeed: after a lost connection, a busy or failing
 * server or a limit of the hour, yes; a file the server refused (not an image, too big), never.
 */
export function canRetryUpload(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500;
}

/**
 * `POST /api/uploads` (a car photo) or `POST /api/uploads/profile-photo` with the photo in the
 * multipart field `image`. XMLHttpRequest rather than the API client because only it reports
 * upload progress (0 to 1) as the bytes go out.
 */
export function uploadPhoto(
  file: File,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
  path: '/uploads' | '/uploads/profile-photo' = '/uploads',
): Promise<UploadedPhoto> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API_BASE}${path}`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('accept', 'application/json');
    for (const [name, value] of Object.entries(apiHooks.headers?.() ?? {})) {
      xhr.setRequestHeader(name, value);
    }
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve((JSON.parse(xhr.responseText) as UploadResult).data);
        } catch {
          reject(errorOf(xhr));
        }
      } else {
        const error = errorOf(xhr);
        apiHooks.onError?.(error);
        reject(error);
      }
    };
    xhr.onerror = () => reject(networkError());
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });

    const form = new FormData();
    form.append('image', file);
    xhr.send(form);
  });
}
