import { ApiErrorSchema } from '@carmarket/shared';

/** The error answers a signed-in route may give, for its OpenAPI description and serializer. */
export const errorResponses = {
  400: ApiErrorSchema,
  401: ApiErrorSchema,
  403: ApiErrorSchema,
  404: ApiErrorSchema,
  409: ApiErrorSchema,
};
