import type { EmulatorDocument, NamedObject } from './types.js';

/** Small seeded generator (mulberry32) so the sample archive is the same on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CORRESPONDENTS: NamedObject[] = [
  { id: 1, name: 'ACME Corp' },
  { id: 2, name: 'Bank of Springfield' },
  { id: 3, name: 'City Utilities' },
  { id: 4, name: 'Müller & Söhne GmbH' },
  { id: 5, name: 'Tax Office' },
  { id: 6, name: 'Insurance <Mutual>' },
];

const DOCUMENT_TYPES: NamedObject[] = [
  { id: 1, name: 'Invoice' },
  { id: 2, name: 'Bank statement' },
  { id: 3, name: 'Contract' },
  { id: 4, name: 'Letter' },
  { id: 5, name: 'Tax return' },
];

interface Template {
  readonly title: (n: number, year: number) => string;
  readonly content: (n: number, year: number, month: string) => string;
  readonly correspondent: number | null;
  readonly documentType: number | null;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "invoice" appears in more than half of the documents so a search for it spans several pages of 25. */
const TEMPLATES: Template[] = [
  {
    title: (n, y) => `Invoice ${y}-${100 + n}`,
    content: (n, y, m) =>
      `ACME Corp invoice number ${y}-${100 + n} for ${m}. Please pay this invoice within 14 days. Total amount: ${(n * 37.5).toFixed(2)} EUR. Thank you for your business.`,
    correspondent: 1,
    documentType: 1,
  },
  {
    title: (_n, _y) => 'Bank statement',
    content: (n, y, m) => `Account statement for ${m} ${y}. Opening balance ${n * 120} EUR. Card payment of invoice ACME. Closing balance ${n * 131} EUR.`,
    correspondent: 2,
    documentType: 2,
  },
  {
    title: (_n, y) => `Electricity bill ${y}`,
    content: (n, y, m) =>
      `City Utilities electricity and water invoice for ${m} ${y}. Meter reading ${n * 1013}. Payment by direct debit from your bank account.`,
    correspondent: 3,
    documentType: 1,
  },
  {
    title: (n, _y) => `Service contract No. ${n}`,
    content: (n, y, m) =>
      `Contract between Müller & Söhne GmbH and the customer, signed ${m} ${y}. Clause ${n}: the invoice is sent monthly. Terms & conditions <see annex>.`,
    correspondent: 4,
    documentType: 3,
  },
  {
    title: (_n, y) => `Tax assessment ${y}`,
    content: (n, y, _m) =>
      `Tax Office notice of assessment for the year ${y}. Refund of ${n * 11} EUR to your bank account. Keep this letter with your tax return.`,
    correspondent: 5,
    documentType: 5,
  },
  {
    title: (_n, y) => `Insurance policy renewal ${y}`,
    content: (n, y, m) => `Your insurance policy ${n}-${y} renews in ${m}. The premium invoice follows separately. Questions? Write to "Insurance <Mutual>".`,
    correspondent: 6,
    documentType: 4,
  },
  {
    title: (n, _y) => `Handwritten note ${n}`,
    content: (_n, _y, m) => `Shopping list for ${m}: milk, bread, coffee. Call the landlord about the heating.`,
    correspondent: null,
    documentType: null,
  },
];

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/**
 * Deterministic sample data: `count` documents (default 60) with correspondents and types,
 * varied titles/contents/dates so searches for common words hit many pages. Ids run 1…count
 * and `added` grows with the id, as in a real archive.
 */
export function sampleArchive(count = 60): { documents: EmulatorDocument[]; correspondents: NamedObject[]; documentTypes: NamedObject[] } {
  const random = seeded(20241105);
  const documents: EmulatorDocument[] = [];
  const start = Date.UTC(2019, 0, 7, 9, 0, 0);
  for (let id = 1; id <= count; id++) {
    const template = TEMPLATES[(id * 5 + Math.floor(random() * 3)) % TEMPLATES.length] ?? TEMPLATES[0];
    if (template === undefined) continue;
    const addedMs = start + id * 26 * 86_400_000 + Math.floor(random() * 86_400_000);
    const createdMs = addedMs - Math.floor(random() * 20) * 86_400_000;
    const created = new Date(createdMs);
    const year = created.getUTCFullYear();
    const month = MONTHS[created.getUTCMonth()] ?? 'January';
    const micros = String(Math.floor(random() * 1_000_000)).padStart(6, '0');
    documents.push({
      id,
      title: template.title(id, year),
      content: template.content(id, year, month),
      created: `${year}-${pad(created.getUTCMonth() + 1)}-${pad(created.getUTCDate())}`,
      added: new Date(addedMs).toISOString().replace(/\.\d{3}Z$/, `.${micros}Z`),
      correspondent: template.correspondent,
      documentType: template.documentType,
    });
  }
  return {
    documents,
    correspondents: CORRESPONDENTS.map((c) => ({ ...c })),
    documentTypes: DOCUMENT_TYPES.map((t) => ({ ...t })),
  };
}
