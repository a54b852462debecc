// The hosted verification flow's JSON API (tag `hosted`): what the page at /v/{token} calls, and what a
// test can drive without a browser. No partner credentials: the link, then the session, is the authority.
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../platform/errors.ts';
import { maxImageBytes, imageRefusalMessages } from '../../platform/images.ts';
import { formFiles, installMultipart, readForm } from '../../platform/http/multipart.ts';
import { bearer } from '../../platform/http/partner-api.ts';
import type { HttpApp } from '../../platform/http/types.ts';
import type { Session, SessionView, VerificationSessionService } from './verification-sessions.service.ts';

/**
 * The page keeps the session in this cookie (HttpOnly, Secure, SameSite=Lax), so its script never holds
 * the token; an API client sends `Authorization: Bearer` instead. Lax, not Strict: the person reopens
 * their link from webmail (a cross-site navigation, which must resume the flow), while a cross-site form
 * post still carries no cookie.
 */
export const verificationSessionCookie = 'pvs_verification_session';

/** The session token from the Authorization header, or else from the page's cookie. */
export function sessionTokenOf(request: FastifyRequest): string | undefined {
  return bearer(request) ?? cookieValue(request.headers.cookie, verificationSessionCookie);
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const pair of header?.split(';') ?? []) {
    const [key, ...value] = pair.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

const attemptStatuses = ['CHECKING', 'PASSED', 'MANUAL_REVIEW', 'RETRY', 'FAILED', 'LOCKED_OUT', 'UNAVAILABLE'] as const;
const literals = <V extends string>(values: readonly V[], options: { description?: string } = {}) => Type.Union(values.map((v) => Type.Literal(v)), options);
const sessionFields = {
  completedSteps: Type.Array(literals(['details', 'document', 'selfie'] as const), { description: 'The steps saved so far, in flow order.' }),
  attempt: Type.Union(
    [
      Type.Object({
        number: Type.Integer({ minimum: 1 }),
        status: literals(attemptStatuses, {
          description:
            'CHECKING while the checks run; then PASSED, MANUAL_REVIEW (a person at PVS looks), RETRY (this attempt failed, attempts remain: save the document and selfie again and submit), FAILED, LOCKED_OUT, or UNAVAILABLE (the checks could not run; it does not count: submit again later).',
        }),
      }),
      Type.Null(),
    ],
    { description: 'The latest submitted attempt; null before the first submit.' },
  ),
};

// The director of the verification request's example, on the page that Wattle Creek's partner sent them to.
const sessionExample = {
  expiresAt: '2026-11-22T10:30:00.000Z',
  individual: { role: 'DIRECTOR', roleDescription: null, status: 'IN_PROGRESS' },
  partner: { name: 'Harbour Accounting Partners' },
  attemptsRemaining: 3,
  completedSteps: ['details'],
  attempt: null,
};

const Session = Type.Object(
  {
    expiresAt: Type.String({ format: 'date-time', description: 'When the session ends; the flow must be finished by then.' }),
    individual: Type.Object({
      role: Type.String({ description: 'Why the person is asked: their role (a VerificationRole).' }),
      roleDescription: Type.Union([Type.String(), Type.Null()]),
      status: Type.String({ description: 'The individual status.' }),
    }),
    partner: Type.Object({ name: Type.String({ description: 'Who asked.' }) }),
    attemptsRemaining: Type.Integer(),
    ...sessionFields,
  },
  { $id: 'VerificationSession', title: 'VerificationSession', examples: [sessionExample] },
);

const OpenedSession = Type.Object(
  {
    sessionToken: Type.String({ description: 'Send as `Authorization: Bearer …` on the session calls. Shown once; only its HMAC is kept.' }),
    expiresAt: Type.String({ format: 'date-time' }),
    individual: Type.Object({ role: Type.String(), roleDescription: Type.Union([Type.String(), Type.Null()]), status: Type.String() }),
    partner: Type.Object({ name: Type.String() }),
    attemptsRemaining: Type.Integer(),
    ...sessionFields,
  },
  {
    $id: 'OpenedVerificationSession',
    title: 'OpenedVerificationSession',
    examples: [{ sessionToken: 'T3kq8Yb1Zr6Wm2Lx9Pc4Nd7Hf0Js5Ga-Ue_VoKiRtEw', ...sessionExample, completedSteps: [] }],
  },
);

const Name = (description: string) => Type.String({ minLength: 1, maxLength: 100, description });
const DetailsBody = Type.Object(
  {
    firstName: Name('Given name, as on the identity document.'),
    middleName: Type.Optional(Name('Middle names, if any.')),
    lastName: Name('Family name, as on the identity document.'),
    dateOfBirth: Type.String({ format: 'date', maxLength: 10, 'x-message': 'must be a date as YYYY-MM-DD', description: 'YYYY-MM-DD.' }),
    address: Type.Object(
      {
        line1: Type.String({ minLength: 1, maxLength: 200 }),
        line2: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        locality: Type.String({ minLength: 1, maxLength: 100, description: 'Suburb or town.' }),
        state: Type.Optional(Type.String({ minLength: 1, maxLength: 50, description: 'Required for an Australian address.' })),
        postcode: Type.Optional(Type.String({ minLength: 1, maxLength: 10, description: 'Required for an Australian address.' })),
        country: Type.String({ pattern: '^[A-Z]{2}$', maxLength: 60, 'x-message': 'must be a two-letter country code such as AU', description: 'ISO 3166-1 alpha-2.' }),
      },
      { additionalProperties: false, description: 'The residential address.' },
    ),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
    phone: Type.Optional(Type.String({ pattern: '^\\+?[0-9 ()-]{6,20}$', maxLength: 21, 'x-message': 'must be a phone number: digits, spaces, brackets or dashes, optionally starting with +' })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        firstName: 'Oliver',
        middleName: 'James',
        lastName: 'Kingsley',
        dateOfBirth: '1974-08-11',
        address: { line1: '67 Kurrajong Lane', locality: 'Norwood', state: 'SA', postcode: '5067', country: 'AU' },
        email: 'oliver.kingsley@wattlecreek.example',
        phone: '+61 412 555 019',
      },
    ],
  },
);

const DocumentForm = Type.Object(
  {
    type: literals(['PASSPORT', 'DRIVER_LICENCE', 'MEDICARE'] as const, { description: 'The kind of identity document.' }),
    number: Type.String({
      minLength: 1,
      maxLength: 30,
      pattern: '^[A-Za-z0-9][A-Za-z0-9 -]*$',
      'x-message': 'must be the document number: letters, digits, spaces or dashes',
      description: 'The document number, as printed.',
    }),
    issuingCountry: Type.String({ pattern: '^[A-Z]{2}$', maxLength: 60, 'x-message': 'must be a two-letter country code such as AU', description: 'ISO 3166-1 alpha-2; AU for a driver licence or Medicare card.' }),
    issuingState: Type.Optional(literals(['ACT', 'NSW', 'NT', 'QLD', 'SA', 'TAS', 'VIC', 'WA'] as const, { description: 'The state or territory that issued a driver licence (required for one).' })),
    cardNumber: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 20,
        pattern: '^[A-Za-z0-9]+$',
        'x-message': 'must be letters and digits only',
        description: 'A driver licence’s card number, or the Medicare card’s individual reference number (required for Medicare).',
      }),
    ),
    expiryDate: Type.Optional(Type.String({ format: 'date', maxLength: 10, 'x-message': 'must be a date as YYYY-MM-DD', description: 'YYYY-MM-DD, when the document has one.', examples: ['2031-06-30'] })),
    front: Type.String({ format: 'binary', maxLength: maxImageBytes, description: 'The front (a passport’s photo page): JPEG or PNG, at most 10 MiB.' }),
    back: Type.Optional(Type.String({ format: 'binary', maxLength: maxImageBytes, description: 'The back (a driver licence’s): JPEG or PNG, at most 10 MiB.' })),
  },
  { additionalProperties: false },
);

const SelfieForm = Type.Object({ image: Type.String({ format: 'binary', maxLength: maxImageBytes, description: 'A photo of the person’s face: JPEG or PNG, at most 10 MiB.' }) }, { additionalProperties: false });

const Submitted = Type.Object(
  {
    status: literals(attemptStatuses, { description: 'The attempt’s status: CHECKING, until the checks (run in the background) record an outcome; poll the session.' }),
    attemptsRemaining: Type.Integer({ description: 'Attempts left after this one.' }),
  },
  { $id: 'SubmittedVerificationAttempt', title: 'SubmittedVerificationAttempt', examples: [{ status: 'CHECKING', attemptsRemaining: 2 }] },
);

const uploadShape = { maxFileBytes: maxImageBytes, tooLargeMessage: imageRefusalMessages.TOO_LARGE };

export async function registerVerificationSessionRoutes(app: HttpApp, deps: { sessions: VerificationSessionService }): Promise<void> {
  const tags = ['hosted'];

  // The session is checked first, before the body is read: a caller without one learns nothing more.
  const sessions = new WeakMap<FastifyRequest, Session>();
  const withSession = async (request: FastifyRequest) => {
    const session = await deps.sessions.individualOf(sessionTokenOf(request));
    if (!session) throw new AppError('UNAUTHENTICATED', 'The verification session is unknown, has expired or was replaced; open your latest link again');
    sessions.set(request, session);
  };
  const sessionOf = (request: FastifyRequest) => sessions.get(request)!;

  const sendView = (reply: FastifyReply, view: SessionView) => reply.header('cache-control', 'no-store').send(view);

  app.post(
    '/hosted/v1/verification-sessions',
    {
      schema: {
        tags,
        summary: 'Exchange a verification link for a session',
        description:
          'Spends the link (the token at the end of `/v/{token}`): the flow then continues with the session, so a reload works but the link cannot be shared. The answer also sets the cookie `pvs_verification_session` (HttpOnly, Secure, SameSite=Lax, 24 hours), which the session calls accept in place of the bearer token. The individual becomes IN_PROGRESS (verification.individual.in_progress, once). 410 LINK_INVALID when the link was already opened, replaced or has expired, or the verification is finished; 404 for a link that never existed.',
        operationId: 'openVerificationSession',
        body: Type.Object({ token: Type.String({ maxLength: 128, description: 'The link token.' }) }, { additionalProperties: false, examples: [{ token: 'q8Zk3mW1xT0bVn7RcY2hLs9dJf4gPa6eUo5iKw-XyEA' }] }),
        response: { 201: OpenedSession },
      },
    },
    async (request, reply) => {
      const opened = await deps.sessions.open(request.body.token);
      return reply
        .code(201)
        .header('cache-control', 'no-store')
        .header('set-cookie', `${verificationSessionCookie}=${opened.sessionToken}; Path=/; Max-Age=${deps.sessions.lifetimeSeconds}; HttpOnly; Secure; SameSite=Lax`)
        .send(opened);
    },
  );

  app.get(
    '/hosted/v1/verification-session',
    {
      schema: {
        tags,
        summary: 'The session’s state',
        description: 'With `Authorization: Bearer <sessionToken>`. 401 UNAUTHENTICATED when the session is unknown, has expired, or was ended by a newer link.',
        operationId: 'getVerificationSession',
        response: { 200: Session },
      },
      onRequest: withSession,
    },
    async (request, reply) => {
      const session = sessionOf(request);
      return sendView(reply, await deps.sessions.view(session));
    },
  );

  app.put(
    '/hosted/v1/verification-session/details',
    {
      schema: {
        tags,
        summary: 'Save the person’s details',
        description:
          'With `Authorization: Bearer <sessionToken>`. The details go to the identity provider; PVS keeps none of them. Saving again replaces them. 400 with a pointer and words for each problem; 409 INVALID_STATE once the verification has an outcome; 503 when the identity service does not answer.',
        operationId: 'saveVerificationDetails',
        body: DetailsBody,
        response: { 200: Session },
      },
      onRequest: withSession,
    },
    async (request, reply) => {
      return sendView(reply, await deps.sessions.saveDetails(sessionOf(request), request.body));
    },
  );


  // The uploads take multipart forms; only these routes parse them.
  await app.register(async (scope) => {
    const uploads = scope as HttpApp;
    await installMultipart(uploads, uploadShape);

    uploads.post(
      '/hosted/v1/verification-session/document',
      {
        schema: {
          tags,
          summary: 'Save the identity document',
          description:
            'With `Authorization: Bearer <sessionToken>`. A multipart/form-data form: the document’s fields and its images, `front` and `back`. Each image must be a JPEG or PNG by its bytes (not its name), at most 10 MiB; its metadata (location, camera, time) is removed before it goes to the identity provider. Saving again replaces the document. 400 with a pointer per problem (`/front`: not a JPEG or PNG image); 409 INVALID_STATE once the verification has an outcome or while checks run; 415 for anything but a multipart form.',
          operationId: 'saveVerificationDocument',
          consumes: ['multipart/form-data'],
          body: DocumentForm,
          response: { 200: Session },
        },
        onRequest: withSession,
        preValidation: readForm({ files: ['front', 'back'], ...uploadShape }),
      },
      async (request, reply) => {
        const files = formFiles(request);
        const { front: _front, back: _back, ...fields } = request.body;
        const upload = { ...fields, front: files.get('front')!, ...(files.has('back') ? { back: files.get('back')! } : {}) };
        return sendView(reply, await deps.sessions.saveDocument(sessionOf(request), upload));
      },
    );

    uploads.post(
      '/hosted/v1/verification-session/selfie',
      {
        schema: {
          tags,
          summary: 'Save the selfie',
          description:
            'With `Authorization: Bearer <sessionToken>`. A multipart/form-data form with one file, `image`: a photo of the person’s face, JPEG or PNG by its bytes, at most 10 MiB, its metadata removed. Saving again replaces it. 400 at `/image` for a file that is not one; 409 INVALID_STATE once the verification has an outcome or while checks run.',
          operationId: 'saveVerificationSelfie',
          consumes: ['multipart/form-data'],
          body: SelfieForm,
          response: { 200: Session },
        },
        onRequest: withSession,
        preValidation: readForm({ files: ['image'], ...uploadShape }),
      },
      async (request, reply) => {
        return sendView(reply, await deps.sessions.saveSelfie(sessionOf(request), formFiles(request).get('image')!));
      },
    );
  });

  app.post(
    '/hosted/v1/verification-session/submit',
    {
      schema: {
        tags,
        summary: 'Submit for checking',
        description:
          'With `Authorization: Bearer <sessionToken>`. Starts an attempt once the details, document and selfie are saved: the checks run in the background and the answer is the attempt’s status, CHECKING; poll the session for the outcome. The first submit charges the individual’s verification price. 409 INVALID_STATE when a step is missing, the checks are already running, no attempts are left, or the verification has an outcome.',
        operationId: 'submitVerification',
        response: { 200: Submitted },
      },
      onRequest: withSession,
    },
    async (request, reply) => reply.header('cache-control', 'no-store').send(await deps.sessions.submit(sessionOf(request))),
  );
}
