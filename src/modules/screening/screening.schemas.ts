// What a screening match looks like in an API answer, for every capability that shows one (evidence,
// monitoring alerts): one schema, so the two cannot drift apart.
import { Type } from '@sinclair/typebox';

/** `Match['features']` of matching/screening-index.ts. */
export const MatchFeaturesSchema = Type.Object(
  {
    nameScore: Type.Number(),
    matchedTokens: Type.Integer(),
    unmatchedTokens: Type.Integer(),
    alias: Type.Boolean(),
    dateOfBirth: Type.String(),
    country: Type.String(),
    identifier: Type.String(),
  },
  { description: 'What made the score: name similarity, and the date of birth and country as supporting or contradicting evidence ([how names are matched](docs/screening.md#how-names-are-matched)).' },
);
