import type { MdmModel, MdmSource } from '../../../schemas/mdm';

/** The model the synthetic people are matched with. */
export function syntheticModel(): MdmModel {
  const name = { kind: 'name' as const, hard_identifier: false, survivorship: 'most_frequent' as const };
  // A first name that is not even similar blocks an automatic merge: twins and household members share every
  // other fact; a nickname (bob / robert) then waits for a steward as a suspected duplicate.
  return {
    entity_type: 'person',
    description: 'Synthetic people from three systems (crm, erp, web)',
    attributes: {
      first_name: {
        ...name,
        hard_identifier: true,
        comparisons: [
          { type: 'jaro_winkler', threshold: 0.92 },
          { type: 'jaro_winkler', threshold: 0.8 },
        ],
      },
      last_name: {
        ...name,
        comparisons: [
          { type: 'jaro_winkler', threshold: 0.92 },
          { type: 'jaro_winkler', threshold: 0.8 },
        ],
      },
      dob: {
        kind: 'date',
        comparisons: [
          { type: 'levenshtein', max: 2 },
          { type: 'date_distance', days: 366 },
        ],
        hard_identifier: false,
        survivorship: 'most_trusted',
      },
      email: {
        kind: 'email',
        comparisons: [{ type: 'levenshtein', max: 2 }],
        hard_identifier: false,
        survivorship: 'most_recent',
      },
      phone: {
        kind: 'phone',
        comparisons: [{ type: 'levenshtein', max: 2 }],
        hard_identifier: false,
        survivorship: 'most_recent',
      },
      zip: { kind: 'id', comparisons: [], hard_identifier: false, survivorship: 'most_recent' },
      national_id: { kind: 'id', comparisons: [], hard_identifier: true, survivorship: 'most_trusted' },
    },
    deterministic_rules: [{ name: 'same_national_id', attributes: ['national_id'] }],
    blocking_rules: [
      { name: 'dob', keys: ['dob'] },
      { name: 'phone', keys: ['phone'] },
      { name: 'email', keys: ['email'] },
      { name: 'name_zip', keys: [{ attribute: 'last_name', prefix: 3 }, 'zip'] },
    ],
    review_floor: 50,
    source_priority: ['crm', 'erp', 'web'],
    schedule: null,
  };
}

/** Ready-to-post source registrations for the tables of `syntheticTables` in `<catalog>.<schema>`. */
export function syntheticSources(catalog: string, schema: string): MdmSource[] {
  const t = (name: string) => `${catalog}.${schema}.${name}`;
  return [
    {
      system: 'crm',
      entity_type: 'person',
      table_fqn: t('crm_customers'),
      key_column: 'cust_id',
      columns: {
        first_name: 'given_name',
        last_name: 'family_name',
        dob: 'birth_date',
        email: 'email_address',
        phone: 'phone',
        zip: 'zip',
        national_id: 'national_id',
      },
      trust: 90,
      updated_at_column: 'updated_at',
    },
    {
      system: 'erp',
      entity_type: 'person',
      table_fqn: t('erp_parties'),
      key_column: 'party_no',
      columns: {
        first_name: 'fname',
        last_name: 'lname',
        dob: 'dob',
        email: 'email',
        phone: 'tel',
        zip: 'postal_code',
        national_id: 'tax_id',
      },
      trust: 70,
      updated_at_column: 'modified_at',
    },
    {
      system: 'web',
      entity_type: 'person',
      table_fqn: t('web_users'),
      key_column: 'user_key',
      columns: {
        first_name: 'first_name',
        last_name: 'last_name',
        dob: 'date_of_birth',
        email: 'mail',
        phone: 'mobile',
        zip: 'zip_code',
      },
      trust: 50,
      updated_at_column: 'last_login',
    },
  ];
}
