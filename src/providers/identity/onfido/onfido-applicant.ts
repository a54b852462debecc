// A person's details as an Onfido applicant and back, and the fields of a document as Onfido read them.
// Pure: no call to Onfido here.
//
// - Given names: a middle name is joined to the first name (`first_name: 'Olivia Grace'`). Onfido's
//   applicant has no middle-name field, and its document report compares `first_name` with the given names
//   printed on the document, which include the middle names; sending the first name alone would make a
//   passport's given names differ from the applicant's.
// - Email and phone are not sent: no report PVS asks for uses them (Onfido needs email only for US checks
//   and for forms the applicant fills in, neither used here).
// - The typed document number, card number, expiry and state are not sent either (no `id_numbers`): the
//   document report reads them from the images, and Identity Enhanced matches name, date of birth and
//   address, not document numbers. Onfido's upload takes an issuing country but no state; `id_numbers`'
//   `state_code` is for US state licences.
// - Onfido requires a postcode with an address. An address without one (allowed outside Australia) is sent
//   as the applicant's `location.country_of_residence` only, which is all PVS then reads back.
import countries from '../../../platform/iso-countries.ts';
import type { ClaimedIdentity, IdentityDocumentFields, PersonDetails } from '../identity-provider.ts';
import type { OnfidoDocumentType } from './onfido-store.ts';

/** The applicant fields PVS sends (openapi.json `applicant_builder`), with countries as ISO alpha-3. */
export interface ApplicantFields {
  first_name: string;
  last_name: string;
  dob: string;
  address?: { street: string; sub_street: string; town: string; state: string; postcode: string; country: string };
  location?: { country_of_residence: string };
}

/** What PVS reads of an applicant (openapi.json `applicant`). */
export interface ApplicantRead {
  first_name?: string;
  last_name?: string;
  dob?: string;
  address?: { street?: string; sub_street?: string; town?: string; state?: string; postcode?: string; country?: string } | null;
  location?: { country_of_residence?: string } | null;
}

const singleSpaced = (text: string | undefined) => (text ?? '').trim().replace(/\s+/g, ' ');

export function alpha3Of(alpha2: string): string {
  const code = countries.alpha2ToAlpha3(alpha2.toUpperCase());
  if (!code) throw new Error(`Onfido: '${alpha2}' is not an ISO 3166-1 alpha-2 country code`);
  return code;
}

/** An Onfido country (alpha-3, or alpha-2 in a few report fields) as alpha-2; '' when there is none. */
export function alpha2Of(code: string | null | undefined): string {
  if (!code) return '';
  const upper = code.toUpperCase();
  return upper.length === 2 ? upper : (countries.alpha3ToAlpha2(upper) ?? '');
}

export function applicantOf(details: PersonDetails): ApplicantFields {
  const { address } = details;
  const country = alpha3Of(address.country);
  return {
    first_name: singleSpaced(`${details.firstName} ${details.middleName ?? ''}`),
    last_name: singleSpaced(details.lastName),
    dob: details.dateOfBirth,
    // Empty strings, not absent fields, so that an update clears what an earlier save set.
    ...(address.postcode
      ? { address: { street: address.line1, sub_street: address.line2 ?? '', town: address.locality, state: address.state ?? '', postcode: address.postcode, country } }
      : { location: { country_of_residence: country } }),
  };
}

export function detailsOf(applicant: ApplicantRead): PersonDetails {
  const address = applicant.address ?? {};
  return {
    firstName: applicant.first_name ?? '',
    lastName: applicant.last_name ?? '',
    dateOfBirth: applicant.dob ?? '',
    // Empty fields are those PVS sent empty to clear them (applicantOf): absent to the caller.
    address: {
      line1: address.street ?? '',
      ...(address.sub_street ? { line2: address.sub_street } : {}),
      locality: address.town ?? '',
      ...(address.state ? { state: address.state } : {}),
      ...(address.postcode ? { postcode: address.postcode } : {}),
      country: residenceOf(applicant),
    },
  };
}

function residenceOf(applicant: ApplicantRead): string {
  return alpha2Of(applicant.address?.country ?? applicant.location?.country_of_residence);
}

export function claimedOf(applicant: ApplicantRead, documentCountry: string): ClaimedIdentity {
  return {
    fullName: singleSpaced(`${applicant.first_name ?? ''} ${applicant.last_name ?? ''}`),
    dateOfBirth: applicant.dob ?? '',
    country: documentCountry,
    residenceCountry: residenceOf(applicant),
  };
}

/** The document report's `properties` (openapi.json `document_properties`) PVS reads. */
export interface DocumentProperties {
  issuing_country?: string | null;
  issuing_state?: string | null;
  date_of_expiry?: string | null;
  document_numbers?: Array<{ type?: string; value?: string }> | null;
}

/** The fields of a document as Onfido read them from its images; the type is the one PVS asked for. */
export function documentFieldsOf(type: OnfidoDocumentType, properties: DocumentProperties | undefined, fallbackCountry: string): IdentityDocumentFields {
  const numbers = properties?.document_numbers ?? [];
  const number = numbers.find((n) => n.type === 'document_number') ?? numbers[0];
  return {
    type,
    number: number?.value ?? '',
    issuingCountry: alpha2Of(properties?.issuing_country) || fallbackCountry,
    ...(properties?.issuing_state ? { issuingState: properties.issuing_state } : {}),
    ...(properties?.date_of_expiry ? { expiryDate: properties.date_of_expiry } : {}),
  };
}
