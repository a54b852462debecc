import { Type, type Static } from '@sinclair/typebox';
import { newPasswordMinLength, passwordMaxLength } from '../accounts/passwords.ts';

// The same email format requests and admin commands check (ajv-formats' `email`), in words.
export const OperatorEmail = Type.String({
  format: 'email',
  maxLength: 254,
  'x-message': 'must be an email address',
  description: "The operator's email address, their sign-in name; compared without regard to case.",
});

export const CreateOperatorInput = Type.Object({ email: OperatorEmail }, { additionalProperties: false });
export type CreateOperatorInput = Static<typeof CreateOperatorInput>;

export const CreatedOperator = Type.Object({
  operatorId: Type.String(),
  email: Type.String(),
  password: Type.String({ description: 'One-time: shown once, only a slow hash is kept, and it must be replaced at the first sign-in.' }),
});
export type CreatedOperator = Static<typeof CreatedOperator>;

export const Operator = Type.Object(
  {
    id: Type.String({ description: 'The operator id (`opr_…`).' }),
    email: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Operator', title: 'Operator' },
);
export type Operator = Static<typeof Operator>;

export const OperatorTokenBody = Type.Object(
  {
    email: OperatorEmail,
    password: Type.String({ minLength: 1, maxLength: passwordMaxLength, description: 'The current password (at the first sign-in, the one-time password).' }),
    newPassword: Type.Optional(
      Type.String({
        minLength: newPasswordMinLength,
        maxLength: passwordMaxLength,
        description: `Replaces the password (${newPasswordMinLength} to ${passwordMaxLength} characters, not the current one). Required while the account still has its one-time password.`,
      }),
    ),
    code: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          "The operator's second factor: the 6-digit code their authenticator app shows now, or one of their recovery codes (`abcd-efgh-jkmn`, once each). " +
          'Required once the operator has set up an authenticator app, which they do at their first sign-in to the console (`/console`); no token is issued before that. ' +
          'A code is accepted once; a wrong or used one counts toward the lockout as a wrong password does.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type OperatorTokenBody = Static<typeof OperatorTokenBody>;

export const OperatorToken = Type.Object({
  access_token: Type.String({ description: 'An ES256 JWT for Authorization: Bearer on /ops/v1; never accepted on /v1.' }),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'Seconds (900); sign in again after that.' }),
});
export type OperatorToken = Static<typeof OperatorToken>;
