import { itemSources } from './rng';

export interface TextItem {
  title: string;
  summary: string;
  text: string;
  metadata: Record<string, string>;
}

const DOMAINS = ['billing', 'onboarding', 'security', 'data platform', 'support', 'networking'];

function csvField(v: string): string {
  return /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** A knowledge-base item: a Markdown article, a FAQ (JSON) or a glossary (CSV). */
export function buildKnowledgeItem(type: string, seed: number, asOf: string, index: number): TextItem {
  const { rng, faker } = itemSources(seed, asOf, 'knowledge', type, index);
  const domain = rng.pick(DOMAINS);
  const product = faker.commerce.productName();
  const author = faker.person.fullName();
  const updated = faker.date.recent({ days: 90 }).toISOString().slice(0, 10);
  const metadata = { domain, author, updated };
  if (type === 'article') {
    const title = `How to ${faker.hacker.verb()} the ${faker.hacker.noun()} in ${product}`;
    const steps = Array.from({ length: rng.int(3, 6) }, (_, i) => `${i + 1}. ${faker.hacker.phrase()}`);
    const summary = `A ${domain} how-to for ${product}: ${steps.length} steps, written by ${author}.`;
    const text = [
      `# ${title}`,
      '',
      `_Domain: ${domain} · Author: ${author} · Updated: ${updated}_`,
      '',
      '## Overview',
      '',
      faker.lorem.paragraph({ min: 3, max: 5 }),
      '',
      '## Steps',
      '',
      ...steps,
      '',
      '## Troubleshooting',
      '',
      faker.lorem.paragraph({ min: 2, max: 4 }),
      '',
    ].join('\n');
    return { title, summary, text, metadata };
  }
  if (type === 'faq') {
    const title = `${product} FAQ (${domain})`;
    const entries = Array.from({ length: rng.int(4, 8) }, () => ({
      question: `${faker.hacker.phrase().replace(/[.!]$/, '')}?`,
      answer: faker.lorem.sentences({ min: 1, max: 3 }),
    }));
    const summary = `${entries.length} questions and answers about ${product} for ${domain}.`;
    const text = JSON.stringify({ title, domain, author, updated, entries }, null, 2) + '\n';
    return { title, summary, text, metadata };
  }
  if (type === 'glossary') {
    const title = `${domain[0].toUpperCase()}${domain.slice(1)} glossary`;
    const terms = Array.from({ length: rng.int(8, 16) }, () => [
      `${faker.hacker.adjective()} ${faker.hacker.noun()}`,
      faker.hacker.abbreviation(),
      faker.lorem.sentence(),
    ]);
    const summary = `${terms.length} ${domain} terms with abbreviations and definitions.`;
    const text = ['term,abbreviation,definition', ...terms.map((r) => r.map(csvField).join(','))].join('\n') + '\n';
    return { title, summary, text, metadata };
  }
  throw new Error(`unknown knowledge type ${type}`);
}
