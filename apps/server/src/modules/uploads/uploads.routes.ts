import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorSchema, UploadResultSchema } from '@carmarket/shared';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { currentUser, guard } from '../../plugins/auth.ts';
import { uploadPolicy } from './uploads.policy.ts';
import type { Storage } from '../../adapters/storage.ts';
import { MAX_UPLOAD_BYTES } from './image-processing.ts';
import { storeUpload, type UploadQuota } from './uploads.service.ts';

export const uploadRoutes: FastifyPluginAsyncZod<{
  db: Db;
  storage: Storage;
  quota: UploadQuota;
}> = async (app, { db, storage, quota }) => {
  await app.register(multipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 5, parts: 6 },
  });

  const responses = {
    200: UploadResultSchema,
    400: ApiErrorSchema,
    401: ApiErrorSchema,
    403: ApiErrorSchema,
    413: ApiErrorSchema,
    415: ApiErrorSchema,
    429: ApiErrorSchema,
  };

  /**
   * Why the form could not be read, as the answer to give: whatever the multipart parser
   * refuses (a boundary missing or never closed, a malformed part) is the request's fault.
   */
  function formError(error: unknown): AppError {
    if (error instanceof AppError) return error;
    const { code, statusCode } = error as { code?: string; statusCode?: number };
    const field = { field: 'image' };
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      return new AppError(413, 'payload-too-large', 'Photos can be at most 10 MB.', field);
    }
    if (statusCode === 413) {
      return new AppError(413, 'payload-too-large', 'Send one photo at a time.', field);
    }
    const message = 'The photo did not arrive as a readable form. Please choose it again.';
    return new AppError(400, 'validation-failed', message, field);
  }

  /** Reads the multipart field `image` and stores it through the one safe path (storeUpload). */
  async function receivePhoto(request: FastifyRequest) {
    const actor = currentUser(request);
    if (!request.isMultipart()) {
      throw new AppError(415, 'unsupported-media-type', 'Send the photo as multipart/form-data.', {
        field: 'image',
      });
    }
    let bytes: Buffer;
    try {
      const file = await request.file();
      if (!file || file.fieldname !== 'image') {
        throw new AppError(400, 'validation-failed', 'Image is required', { field: 'image' });
      }
      bytes = await file.toBuffer();
    } catch (error) {
      throw formError(error);
    }
    const image = await storeUpload(db, storage, quota, actor.id, bytes);
    return { success: true as const, data: image };
  }

  app.post(
    '/uploads',
    {
      preValidation: [app.authenticate, guard(uploadPolicy.canUpload)],
      bodyLimit: MAX_UPLOAD_BYTES + 64 * 1024,
      schema: {
        tags: ['uploads'],
        summary: 'Upload a photo (multipart field `image`; JPEG, PNG, WebP or AVIF, at most 10 MB)',
        consumes: ['multipart/form-data'],
        response: responses,
      },
    },
    receivePhoto,
  );

  app.post(
    '/uploads/profile-photo',
    {
      preValidation: [app.authenticate, guard(uploadPolicy.canUploadProfilePhoto)],
      bodyLimit: MAX_UPLOAD_BYTES + 64 * 1024,
      schema: {
        tags: ['uploads'],
        summary:
          'Upload a profile photo (anyone signed in; as `/uploads`); then set it with `POST /api/auth/update-user` `{ image: url }`',
        consumes: ['multipart/form-data'],
        response: responses,
      },
    },
    receivePhoto,
  );
};
