import { Type, type Static } from '@sinclair/typebox';

export const ApiClient = Type.Object(
  {
    id: Type.String({ description: 'The client id (`cli_…`) used as client_id at /oauth2/token.' }),
    label: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
    revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { $id: 'ApiClient', title: 'ApiClient' },
);
export type ApiClient = Static<typeof ApiClient>;

export const CreatedApiClient = Type.Object(
  {
    ...ApiClient.properties,
    // Optional: a replay of the same Idempotency-Key answers without it (PVS never keeps the secret).
    clientSecret: Type.Optional(Type.String({ description: 'Shown once, in the first response only (absent from an Idempotency-Key replay); PVS keeps a slow hash.' })),
  },
  { $id: 'CreatedApiClient', title: 'CreatedApiClient' },
);
export type CreatedApiClient = Static<typeof CreatedApiClient>;

export const CreateApiClientBody = Type.Object(
  {
    label: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Your name for the client, such as where it is deployed.' })),
  },
  { additionalProperties: false },
);
export type CreateApiClientBody = Static<typeof CreateApiClientBody>;

export const ApiClientParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
