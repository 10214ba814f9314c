import { pad, prng, SYSTEMS, type SynthRecord, type SyntheticData } from './synthetic';

const title = (s: string) => s.replace(/(^|[ '-])([a-z])/g, (_, p: string, c: string) => p + c.toUpperCase());

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
