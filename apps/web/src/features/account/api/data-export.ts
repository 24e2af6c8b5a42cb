import { useMutation } from '@tanstack/react-query';

import { API_BASE, apiErrorOf, apiHooks, networkError } from '../../../lib/api-client';

/** A downloaded file, ready to hand to the browser to save. */
export interface DownloadedFile {
  blob: Blob;
  filename: string;
}

/**
 * `GET /api/my/data-export`: a ZIP of everything of the signed-in person's (decision 042), a few
 * times a day. The answer is a file, not JSON, so this reads it with `fetch` itself, with the
 * one client's headers (the bearer token) and its error words (`apiErrorOf`, `networkError`),
 * as the photo upload does.
 */
export async function downloadMyData(): Promise<DownloadedFile> {
  let response: Response;
  try {
    response = await fetch(`${API_BASE}/my/data-export`, {
      credentials: 'include',
      headers: { accept: 'application/zip, application/json', ...apiHooks.headers?.() },
    });
  } catch {
    throw networkError();
  }
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => undefined);
    const error = apiErrorOf(response.status, body);
    apiHooks.onError?.(error);
    throw error;
  }
  let blob: Blob;
  try {
    blob = await response.blob();
  } catch {
    // The connection broke off part way: the file is not whole.
    throw networkError();
  }
  const named = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '');
  return { blob, filename: named?.[1] ?? 'carmarket-my-data.zip' };
}

export function useDownloadMyData() {
  return useMutation({ mutationFn: downloadMyData });
}

/** Hands a file to the browser's downloads, as a link with `download` would. */
export function saveFile({ blob, filename }: DownloadedFile) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once it started; the address can go a little later.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
