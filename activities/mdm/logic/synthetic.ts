import type { MdmModel, MdmSource } from '../../../schemas/mdm';

/**
 * Synthetic people with known truth: three source systems that name and format the same facts differently, and
 * duplicates that carry typos, swapped names, nicknames, gaps and moves. Twins (same surname, birth date,
 * address and phone) and household members (same surname, address and phone) are different people: the hard
 * non-duplicates. Deterministic for a seed; no clock, no I/O.
 */

/** mulberry32: a small, fast, seeded PRNG. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST: [string, string | null][] = [
  ['robert', 'bob'],
  ['william', 'bill'],
  ['richard', 'dick'],
  ['james', 'jim'],
  ['john', 'jack'],
  ['michael', 'mike'],
  ['david', 'dave'],
  ['joseph', 'joe'],
  ['thomas', 'tom'],
  ['charles', 'charlie'],
  ['christopher', 'chris'],
  ['daniel', 'dan'],
  ['matthew', 'matt'],
  ['anthony', 'tony'],
  ['donald', 'don'],
  ['steven', 'steve'],
  ['andrew', 'andy'],
  ['joshua', 'josh'],
  ['kenneth', 'ken'],
  ['edward', 'ed'],
  ['elizabeth', 'liz'],
  ['jennifer', 'jen'],
  ['patricia', 'pat'],
  ['margaret', 'maggie'],
  ['susan', 'sue'],
  ['jessica', 'jess'],
  ['katherine', 'kate'],
  ['rebecca', 'becky'],
  ['deborah', 'debbie'],
  ['victoria', 'vicky'],
  ['samantha', 'sam'],
  ['alexandra', 'alex'],
  ['christine', 'chris'],
  ['kimberly', 'kim'],
  ['pamela', 'pam'],
  ['mary', null],
  ['linda', null],
  ['barbara', null],
  ['sarah', null],
  ['karen', null],
  ['nancy', null],
  ['lisa', null],
  ['betty', null],
  ['sandra', null],
  ['ashley', null],
  ['emily', null],
  ['donna', null],
  ['michelle', null],
  ['carol', null],
  ['amanda', null],
  ['melissa', null],
  ['stephanie', null],
  ['laura', null],
  ['helen', null],
  ['anna', null],
  ['brenda', null],
  ['nicole', null],
  ['emma', null],
  ['olivia', null],
  ['sophia', null],
  ['isabella', null],
  ['mia', null],
  ['charlotte', null],
  ['amelia', null],
  ['harper', null],
  ['paul', null],
  ['mark', null],
  ['george', null],
  ['kevin', null],
  ['brian', null],
  ['ronald', null],
  ['timothy', 'tim'],
  ['jason', null],
  ['jeffrey', 'jeff'],
  ['ryan', null],
  ['jacob', 'jake'],
  ['gary', null],
  ['nicholas', 'nick'],
  ['eric', null],
  ['jonathan', 'jon'],
  ['stephen', 'steve'],
  ['larry', null],
  ['justin', null],
  ['scott', null],
  ['brandon', null],
  ['benjamin', 'ben'],
  ['samuel', 'sam'],
  ['gregory', 'greg'],
  ['frank', null],
  ['alexander', 'alex'],
  ['raymond', 'ray'],
  ['patrick', 'pat'],
  ['jack', null],
  ['dennis', null],
  ['jerry', null],
  ['tyler', null],
  ['aaron', null],
  ['jose', null],
  ['adam', null],
  ['nathan', 'nate'],
  ['henry', 'hank'],
  ['douglas', 'doug'],
  ['zachary', 'zach'],
  ['peter', 'pete'],
  ['kyle', null],
  ['walter', 'walt'],
  ['ethan', null],
  ['jeremy', null],
  ['harold', 'harry'],
  ['keith', null],
  ['christian', null],
  ['roger', null],
  ['noah', null],
  ['gerald', 'gerry'],
  ['carl', null],
  ['terry', null],
  ['sean', null],
  ['austin', null],
  ['arthur', 'art'],
  ['lawrence', 'larry'],
  ['jesse', null],
  ['dylan', null],
  ['bryan', null],
  ['joe', null],
  ['jordan', null],
  ['billy', null],
  ['bruce', null],
  ['albert', 'al'],
  ['willie', null],
  ['gabriel', 'gabe'],
  ['logan', null],
  ['alan', null],
  ['juan', null],
  ['wayne', null],
  ['roy', null],
  ['ralph', null],
  ['randy', null],
  ['eugene', 'gene'],
  ['vincent', 'vince'],
  ['russell', 'russ'],
  ['elijah', 'eli'],
  ['louis', 'lou'],
  ['bobby', null],
  ['philip', 'phil'],
  ['johnny', null],
  ['grace', null],
  ['chloe', null],
  ['zoe', null],
  ['lily', null],
  ['hannah', null],
  ['natalie', null],
  ['leah', null],
  ['audrey', null],
  ['claire', null],
  ['lucy', null],
  ['ruth', null],
  ['judith', 'judy'],
  ['virginia', 'ginny'],
  ['dorothy', 'dot'],
  ['theresa', 'terri'],
  ['beverly', 'bev'],
  ['denise', null],
  ['marilyn', null],
  ['diana', null],
  ['julie', null],
  ['joyce', null],
];

const LAST = (
  'smith johnson williams brown jones garcia miller davis rodriguez martinez hernandez lopez gonzalez wilson ' +
  'anderson thomas taylor moore jackson martin lee perez thompson white harris sanchez clark ramirez lewis ' +
  'robinson walker young allen king wright scott torres nguyen hill flores green adams nelson baker hall rivera ' +
  'campbell mitchell carter roberts gomez phillips evans turner diaz parker cruz edwards collins reyes stewart ' +
  'morris morales murphy cook rogers gutierrez ortiz morgan cooper peterson bailey reed kelly howard ramos kim ' +
  'cox ward richardson watson brooks chavez wood james bennett gray mendoza ruiz hughes price alvarez castillo ' +
  'sanders patel myers long ross foster jimenez powell jenkins perry russell sullivan bell coleman butler ' +
  'henderson barnes gonzales fisher vasquez simmons romero jordan patterson alexander hamilton graham reynolds ' +
  'griffin wallace moreno west cole hayes bryant herrera gibson ellis tran medina aguilar stevens murray ford ' +
  'castro marshall owens harrison fernandez mcdonald woods washington kennedy wells vargas henry chen freeman ' +
  'webb tucker guzman burns crawford olson simpson porter hunter gordon mendez silva shaw snyder mason dixon ' +
  'munoz hunt hicks holmes palmer wagner black robertson boyd rose stone salazar fox warren mills meyer rice ' +
  'schmidt garza daniels ferguson nichols stephens soto weaver ryan gardner payne grant dunn kelley spencer ' +
  'hawkins arnold pierce vazquez hansen peters santos hart bradley knight elliott cunningham duncan armstrong ' +
  'hudson carroll lane riley andrews alvarado ray delgado berry perkins hoffman johnston matthews pena richards ' +
  'willis carpenter lawrence sandoval guerrero george chapman rios estrada ortega watkins greene nunez wheeler ' +
  'valdez harper burke larson santiago maldonado morrison franklin carlson austin dominguez carr lawson jacobs ' +
  "o'brien lynch singh vega bishop montgomery oliver jensen harvey williamson gilbert dean sims espinoza howell " +
  'li wong reid hanson le mccoy garrett burton fuller wang weber welch rojas lucas marquez fields park yang ' +
  'little banks padilla day walsh bowman schultz luna fowler mejia davidson acosta brewer may holland juarez ' +
  'newman pearson curtis cortez douglas schneider joseph barrett navarro figueroa keller avila wade molina ' +
  'stanley hopkins campos barnett bates chambers caldwell beck lambert miranda byrd craig ayala lowe frazier ' +
  'powers neal leonard gregory carrillo sutton fleming rhodes shelton schwartz norris jennings watts duran ' +
  'walters cohen mcdaniel moran parks steele vaughn becker holt deleon barker terry hale leon hail benson ' +
  'haynes horton miles lyons pham graves bush thornton wolfe warner cabrera mckinney mann zimmerman dawson lara'
).split(' ');

const DOMAINS = ['example.com', 'mail.test', 'inbox.test', 'post.example', 'web.test'];

export interface Person {
  entity: number;
  first: string;
  last: string;
  dob: string; // yyyy-MM-dd
  email: string | null;
  phone: string; // 10 digits
  zip: string;
  nationalId: string; // 9 digits
}

/** A record as written: the person's facts after perturbation, and what was done to them. */
export interface SynthRecord extends Person {
  system: 0 | 1 | 2;
  perturbations: string[];
}

export const SYSTEMS = ['crm', 'erp', 'web'] as const;

const pad = (n: number, w: number) => String(n).padStart(w, '0');
const title = (s: string) => s.replace(/(^|[ '-])([a-z])/g, (_, p: string, c: string) => p + c.toUpperCase());

function typo(s: string, r: () => number): string {
  if (s.length < 3) return s;
  const i = 1 + Math.floor(r() * (s.length - 2));
  const kind = r();
  if (kind < 0.4) return s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2); // transpose
  if (kind < 0.7) return s.slice(0, i) + s.slice(i + 1); // drop
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  return s.slice(0, i) + letters[Math.floor(r() * 26)] + s.slice(i + 1); // replace
}

/**
 * The perturbations a duplicate may carry, with their probabilities. The mix spreads duplicates over every
 * score band: untouched copies (easy), one or two small changes, and heavily changed ones.
 */
const PERTURB: [string, number][] = [
  ['typo_first', 0.18],
  ['typo_last', 0.12],
  ['nickname', 0.12],
  ['swap_names', 0.04],
  ['no_email', 0.2],
  ['no_phone', 0.1],
  ['no_dob', 0.04],
  ['move', 0.1],
  ['dob_day_month', 0.03],
  ['new_email', 0.08],
];

export interface SyntheticData {
  people: Person[];
  records: SynthRecord[];
  /** Indexes into `records`: untouched duplicate pairs, and twin / household pairs (different people). */
  easy: [number, number][];
  hard: [number, number][];
}

/** Generates at least `records` records (exactly that many) for the seed. */
export function generatePeople(records: number, seed: number): SyntheticData {
  const r = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const people: Person[] = [];
  const out: SynthRecord[] = [];
  const easy: [number, number][] = [];
  const hard: [number, number][] = [];
  const newPerson = (): Person => {
    const year = 1940 + Math.floor(r() * 65);
    const dob = `${year}-${pad(1 + Math.floor(r() * 12), 2)}-${pad(1 + Math.floor(r() * 28), 2)}`;
    const first = pick(FIRST)[0];
    const last = pick(LAST);
    const entity = people.length;
    return {
      entity,
      first,
      last,
      dob,
      email: `${first}.${last.replace(/[^a-z]/g, '')}${entity % 97}@${pick(DOMAINS)}`,
      phone: `${2 + Math.floor(r() * 8)}${pad(Math.floor(r() * 1e9), 9)}`,
      zip: pad(Math.floor(r() * 100000), 5),
      nationalId: pad(100000000 + entity * 7919 + Math.floor(r() * 7919), 9).slice(-9),
    };
  };
  const emit = (p: Person, system: 0 | 1 | 2, perturbations: string[]): number => {
    const rec: SynthRecord = { ...p, system, perturbations };
    for (const what of perturbations) {
      if (what === 'typo_first') rec.first = typo(rec.first, r);
      else if (what === 'typo_last') rec.last = typo(rec.last, r);
      else if (what === 'nickname') rec.first = FIRST.find(([f]) => f === p.first)?.[1] ?? typo(rec.first, r);
      else if (what === 'swap_names') [rec.first, rec.last] = [rec.last, rec.first];
      else if (what === 'no_email') rec.email = null;
      else if (what === 'no_phone') rec.phone = '';
      else if (what === 'no_dob') rec.dob = '';
      else if (what === 'move') {
        rec.zip = pad(Math.floor(r() * 100000), 5);
        rec.phone = `${2 + Math.floor(r() * 8)}${pad(Math.floor(r() * 1e9), 9)}`;
      } else if (what === 'dob_day_month' && rec.dob) {
        const [y, m, d] = rec.dob.split('-');
        rec.dob = Number(d) <= 12 ? `${y}-${d}-${m}` : rec.dob;
      } else if (what === 'new_email') rec.email = `${rec.first}${Math.floor(r() * 1000)}@${pick(DOMAINS)}`;
    }
    out.push(rec);
    return out.length - 1;
  };
  while (out.length < records) {
    const roll = r();
    // Hard non-duplicates: a twin or a household member of the previous person, each a person of their own.
    if (roll < 0.06 && people.length > 0) {
      const base = people[people.length - 1];
      const p = newPerson();
      let first = pick(FIRST)[0];
      while (first === base.first) first = pick(FIRST)[0];
      const twin = roll < 0.03;
      const relative: Person = {
        ...p,
        first,
        last: base.last,
        dob: twin ? base.dob : p.dob,
        zip: base.zip,
        phone: base.phone,
        email: `${first}.${base.last.replace(/[^a-z]/g, '')}${p.entity % 97}@${pick(DOMAINS)}`,
      };
      people.push(relative);
      const baseRecord = out.findLastIndex((x) => x.entity === base.entity);
      const i = emit(relative, ((out[baseRecord].system + 1) % 3) as 0 | 1 | 2, []);
      hard.push([baseRecord, i]);
      continue;
    }
    const p = newPerson();
    people.push(p);
    const copies = roll < 0.5 ? 1 : roll < 0.8 ? 2 : roll < 0.95 ? 3 : 4;
    const first = Math.floor(r() * 3) as 0 | 1 | 2;
    let firstIndex = -1;
    for (let k = 0; k < copies && out.length < records; k++) {
      const perturbations = k === 0 ? [] : PERTURB.filter(([, prob]) => r() < prob).map(([w]) => w);
      const i = emit(p, ((first + k) % 3) as 0 | 1 | 2, perturbations);
      if (k === 0) firstIndex = i;
      else if (perturbations.length === 0) easy.push([firstIndex, i]);
    }
  }
  return { people, records: out, easy, hard };
}

export interface SyntheticTable {
  name: string;
  columns: { name: string; type: string }[];
  rows: Record<string, unknown>[];
}

/** Record ids as each system keys them (erp: a number; the others text). */
export function recordKey(rec: SynthRecord, index: number): string {
  if (rec.system === 0) return `C${pad(index + 1, 8)}`;
  if (rec.system === 1) return String(500000 + index);
  return `u-${((index * 2654435761) >>> 0).toString(16).padStart(8, '0')}-${index}`;
}

const usPhone = (d: string) => `+1 (${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`;
const dotted = (d: string) => `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6)}`;
const usDate = (iso: string) => (iso ? `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}` : null);
const compactDate = (iso: string) => (iso ? iso.replace(/-/g, '') : null);
const updatedAt = (index: number) => new Date(Date.UTC(2025, 0, 1) + (index % 500) * 3_600_000).toISOString();

/**
 * The three source tables and the truth table. crm: `cust_id`, Title Case names, DATE birth dates, `+1 (…)`
 * phones, a formatted national id on most rows; erp: numeric `party_no`, UPPER CASE, MM/dd/yyyy text dates,
 * dotted phones, a tax id on some rows, and a few stale duplicate keys; web: lower case, yyyyMMdd dates, bare
 * digits, no national id, and a few rows without a key.
 */
export function syntheticTables(
  data: SyntheticData,
  seed: number,
): { tables: SyntheticTable[]; truth: SyntheticTable } {
  const r = prng(seed ^ 0x5eed);
  const crm: Record<string, unknown>[] = [];
  const erp: Record<string, unknown>[] = [];
  const web: Record<string, unknown>[] = [];
  const truth: Record<string, unknown>[] = [];
  data.records.forEach((rec, i) => {
    const key = recordKey(rec, i);
    truth.push({ system: SYSTEMS[rec.system], record_id: key, entity_id: `P${pad(rec.entity, 8)}` });
    const phone = rec.phone || null;
    if (rec.system === 0)
      crm.push({
        cust_id: key,
        given_name: title(rec.first),
        family_name: title(rec.last),
        birth_date: rec.dob || null,
        email_address: rec.email,
        phone: phone && usPhone(phone),
        zip: rec.zip,
        national_id:
          r() < 0.7 ? `${rec.nationalId.slice(0, 3)}-${rec.nationalId.slice(3, 5)}-${rec.nationalId.slice(5)}` : null,
        updated_at: updatedAt(i),
      });
    else if (rec.system === 1) {
      const row = {
        party_no: Number(key),
        fname: rec.first.toUpperCase(),
        lname: rec.last.toUpperCase(),
        dob: usDate(rec.dob),
        email: rec.email?.toUpperCase() ?? null,
        tel: phone && dotted(phone),
        postal_code: rec.zip,
        tax_id: r() < 0.4 ? rec.nationalId : null,
        modified_at: updatedAt(i),
      };
      erp.push(row);
      // A stale copy of the same key, older: ingest keeps the latest.
      if (r() < 0.003) erp.push({ ...row, tel: null, modified_at: '2020-01-01T00:00:00.000Z' });
    } else {
      web.push({
        user_key: key,
        first_name: rec.first,
        last_name: rec.last,
        date_of_birth: compactDate(rec.dob),
        mail: rec.email,
        mobile: phone,
        zip_code: rec.zip,
        last_login: updatedAt(i),
      });
      if (r() < 0.002) web.push({ user_key: null, first_name: rec.first, last_name: rec.last, last_login: null });
    }
  });
  const s = (name: string) => ({ name, type: 'string' });
  const ts = (name: string) => ({ name, type: 'timestamp' });
  return {
    tables: [
      {
        name: 'crm_customers',
        columns: [s('cust_id'), s('given_name'), s('family_name'), { name: 'birth_date', type: 'date' }].concat([
          s('email_address'),
          s('phone'),
          s('zip'),
          s('national_id'),
          ts('updated_at'),
        ]),
        rows: crm,
      },
      {
        name: 'erp_parties',
        columns: [{ name: 'party_no', type: 'bigint' }, s('fname'), s('lname'), s('dob'), s('email'), s('tel')].concat([
          s('postal_code'),
          s('tax_id'),
          ts('modified_at'),
        ]),
        rows: erp,
      },
      {
        name: 'web_users',
        columns: [s('user_key'), s('first_name'), s('last_name'), s('date_of_birth'), s('mail'), s('mobile')].concat([
          s('zip_code'),
          ts('last_login'),
        ]),
        rows: web,
      },
    ],
    truth: { name: 'truth', columns: [s('system'), s('record_id'), s('entity_id')], rows: truth },
  };
}

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
