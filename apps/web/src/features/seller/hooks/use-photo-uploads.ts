import { MAX_LISTING_PHOTOS } from '@carmarket/shared';
import { useCallback, useEffect, useRef, useState } from 'react';

import { errorMessage } from '../../../lib/api-client';
import { canRetryUpload, photoProblem, uploadPhoto } from '../../../lib/upload-photo';

export interface Photo {
  /** Stable across reordering, for React and for the upload that fills it in. */
  key: string;
  /** The file's name, or "photo" for photos saved earlier. */
  name: string;
  /** What the thumbnail shows: the local file while it uploads, else the server's thumbnail. */
  previewUrl: string;
  status: 'uploading' | 'done' | 'failed';
  /** 0 to 1, while uploading. */
  progress: number;
  /** The upload URL the listing stores. */
  url?: string;
  error?: string;
  /** A failed upload that may succeed if sent again (not a file the server refused). */
  retryable?: boolean;
  /** Kept to try again after a failed upload. */
  file?: File;
}

let nextKey = 0;
const newKey = () => `photo-${(nextKey += 1)}`;

/** Photos saved with a car earlier, as the edit form starts with them. */
export function savedPhotos(images: { url: string; thumbUrl: string }[]): Photo[] {
  return images.map((image, index) => ({
    key: newKey(),
    name: `photo ${index + 1}`,
    previewUrl: image.thumbUrl,
    status: 'done',
    progress: 1,
    url: image.url,
  }));
}

/**
 * The photos of a car being added or edited: each file uploads as soon as it is chosen, with its
 * progress; the order can change, and the first photo is the cover.
 */
export function usePhotoUploads(initial: Photo[] = []) {
  const [photos, setPhotos] = useState<Photo[]>(initial);
  /**
   * What last happened, for the live region: files refused when chosen (too many, wrong type), an
   * upload finished or refused, a photo moved or removed. How many are uploading is counted apart.
   */
  const [notice, setNotice] = useState('');
  /** Files chosen past the 20 a car can have, said until the next choice: none goes silently. */
  const [notAdded, setNotAdded] = useState('');
  const uploads = useRef(new Map<string, AbortController>());
  /**
   * The uploads ended since none was running: the status says them once all have ended ("20
   * photos uploaded."), not the name of whichever ended last.
   */
  const run = useRef({ done: [] as string[], failed: [] as string[] });
  const objectUrls = useRef(new Set<string>());

  // Leaving the page stops the uploads still running and frees the local previews.
  useEffect(() => {
    const running = uploads.current;
    const urls = objectUrls.current;
    return () => {
      running.forEach((controller) => controller.abort());
      running.clear();
      urls.forEach((url) => URL.revokeObjectURL(url));
      urls.clear();
    };
  }, []);

  const update = useCallback((key: string, change: Partial<Photo>) => {
    setPhotos((current) =>
      current.map((photo) => (photo.key === key ? { ...photo, ...change } : photo)),
    );
  }, []);

  const start = useCallback(
    (key: string, file: File) => {
      const controller = new AbortController();
      uploads.current.set(key, controller);
      // The last upload of a run to end says how the run went.
      const ended = () => {
        uploads.current.delete(key);
        if (uploads.current.size > 0) return;
        const { done, failed } = run.current;
        run.current = { done: [], failed: [] };
        if (done.length + failed.length === 0) return;
        setNotice(
          [
            done.length === 1
              ? `${done[0]} uploaded.`
              : done.length > 1 && `${done.length} photos uploaded.`,
            ...failed,
          ]
            .filter(Boolean)
            .join(' '),
        );
      };
      uploadPhoto(file, (progress) => update(key, { progress }), controller.signal).then(
        (uploaded) => {
          update(key, { status: 'done', progress: 1, url: uploaded.url, error: undefined });
          run.current.done.push(file.name);
          ended();
        },
        (error: unknown) => {
          if (controller.signal.aborted) {
            ended();
            return;
          }
          const why = errorMessage(error);
          // Failed photos go last, so the numbers, the cover and the moves are the car's photos'.
          setPhotos((current) => {
            const photo = current.find((candidate) => candidate.key === key);
            if (!photo) return current;
            const failed: Photo = {
              ...photo,
              status: 'failed',
              error: why,
              retryable: canRetryUpload(error),
            };
            return [...current.filter((candidate) => candidate.key !== key), failed];
          });
          // Said at once, and again with the others when the last upload ends.
          const failure = `${file.name} was not uploaded: ${why}`;
          run.current.failed.push(failure);
          setNotice(failure);
          ended();
        },
      );
    },
    [update],
  );

  const add = useCallback(
    (files: File[]) => {
      const problems: string[] = [];
      const tooMany: string[] = [];
      const accepted: Photo[] = [];
      const room = MAX_LISTING_PHOTOS - photos.filter((photo) => photo.status !== 'failed').length;
      for (const file of files) {
        const problem = photoProblem(file);
        if (problem) {
          problems.push(`${file.name}: ${problem}`);
        } else if (accepted.length >= room) {
          tooMany.push(file.name);
        } else {
          const previewUrl = URL.createObjectURL(file);
          objectUrls.current.add(previewUrl);
          accepted.push({
            key: newKey(),
            name: file.name,
            previewUrl,
            status: 'uploading',
            progress: 0,
            file,
          });
        }
      }
      const over = tooMany.length
        ? `${tooMany.length} ${tooMany.length === 1 ? 'photo' : 'photos'} not added: a car can have at most ${MAX_LISTING_PHOTOS} (${tooMany.join(', ')}).`
        : '';
      setNotAdded(over);
      setNotice([...problems, over].filter(Boolean).join(' '));
      if (accepted.length === 0) return;
      setPhotos((current) => [...current, ...accepted]);
      for (const photo of accepted) start(photo.key, photo.file!);
    },
    [photos, start],
  );

  const retry = useCallback(
    (key: string) => {
      const photo = photos.find((candidate) => candidate.key === key);
      if (!photo?.file || !photo.retryable) return;
      update(key, { status: 'uploading', progress: 0, error: undefined, retryable: undefined });
      start(key, photo.file);
    },
    [photos, start, update],
  );

  const remove = useCallback((key: string) => {
    uploads.current.get(key)?.abort();
    uploads.current.delete(key);
    setPhotos((current) => {
      const photo = current.find((candidate) => candidate.key === key);
      if (photo && objectUrls.current.delete(photo.previewUrl)) {
        URL.revokeObjectURL(photo.previewUrl);
      }
      return current.filter((candidate) => candidate.key !== key);
    });
  }, []);

  /** Moves a photo to `index` (0 makes it the cover). */
  const moveTo = useCallback((key: string, index: number) => {
    setPhotos((current) => {
      const from = current.findIndex((photo) => photo.key === key);
      if (from < 0 || index < 0 || index >= current.length) return current;
      const next = [...current];
      const [photo] = next.splice(from, 1);
      next.splice(index, 0, photo!);
      return next;
    });
  }, []);

  return {
    photos,
    notice,
    setNotice,
    notAdded,
    add,
    retry,
    remove,
    moveTo,
    /** The URLs of the uploaded photos, in order: what the listing stores. */
    urls: photos.flatMap((photo) => (photo.status === 'done' && photo.url ? [photo.url] : [])),
    uploadingCount: photos.filter((photo) => photo.status === 'uploading').length,
    /** The cover: the first photo, unless it failed (failed photos are last). */
    coverKey: photos.find((photo) => photo.status !== 'failed')?.key,
  };
}
