import type { ImportJob, ImportMapping, ImportPlanItem } from '@portfolio/contract/imports';
import { messageText } from '@portfolio/contract/messages';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { apiError, json, keyedApiError, mockApi, signIn } from '../../test/api-mock';
import { renderWithProviders } from '../../test/render';
import { ImportScreen } from './import-screen';

const item = (over: Partial<ImportPlanItem>): ImportPlanItem => ({
  sourceId: '1',
  title: 'Untitled',
  kind: 'essays',
  action: 'create',
  reason: null,
  language: 'en',
  translations: [],
  status: 'published',
  date: '2024-03-05T10:00:00.000Z',
  categories: [],
  tags: [],
  images: 0,
  ...over,
});

/** A WordPress export: two essays (one with an Arabic version), an announcement, a page. */
function job(over: Partial<ImportJob> = {}, mapping: ImportMapping = { newsCategories: [], newsTags: [] }): ImportJob {
  const announcementIsNews = mapping.newsCategories.includes('Announcements') || mapping.newsTags.includes('events');
  const items = [
    item({ sourceId: '11', title: 'The Orchard at Dawn', translations: ['ar'], categories: ['Essays'], images: 2 }),
    item({ sourceId: '12', title: 'Salt and Sea', action: 'update', status: 'draft', date: null, categories: ['Essays'] }),
    item({
      sourceId: '13',
      title: 'Reading in Ramallah',
      kind: announcementIsNews ? 'news' : 'essays',
      categories: ['Announcements'],
      tags: ['events'],
    }),
    item({ sourceId: '14', title: 'About me', kind: null, action: 'skip', reason: 'A page, not a post', date: null }),
  ];
  return {
    id: 7,
    state: 'ready',
    format: 'wordpress',
    fileName: 'nour.WordPress.2026-11-20.xml',
    createdAt: '2026-11-26T09:00:00.000Z',
    finishedAt: null,
    mapping,
    report: {
      format: 'wordpress',
      counts: { create: 2, update: 1, unchanged: 0, skip: 1 },
      items,
      warnings: [{ title: 'The Orchard at Dawn', message: 'A gallery block was kept as its images only.' }],
      categories: [
        { name: 'Essays', count: 2 },
        { name: 'Announcements', count: 1 },
      ],
      tags: [{ name: 'events', count: 1 }],
    },
    progress: { items: { done: 0, total: 3 }, images: { done: 0, total: 2 } },
    applyWarnings: [],
    results: [],
    error: null,
    ...over,
  };
}

const exportFile = () => new File(['<rss version="2.0"></rss>'], 'nour.WordPress.2026-11-20.xml', { type: 'text/xml' });

function setup(routes: Parameters<typeof mockApi>[0] = {}) {
  const api = mockApi({ 'GET /api/imports': [], ...routes });
  signIn(api);
  return { api, ...renderWithProviders(<ImportScreen pollMs={20} />) };
}

async function uploadExport(user: ReturnType<typeof setup>['user']) {
  await user.upload(screen.getByLabelText('Export file'), exportFile());
  await user.click(screen.getByRole('button', { name: 'Upload and check' }));
}

const rowOf = (title: string) => screen.getByRole('rowheader', { name: title }).closest('tr') as HTMLElement;
const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);
const count = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;

afterEach(() => {
  document.documentElement.lang = 'en';
  document.documentElement.dir = 'ltr';
});

describe('Import', () => {
  it('says which exports it reads, uploads the file and shows the dry run: counts, every item, every warning with its title', async () => {
    const { api, user } = setup({ 'POST /api/imports': () => json(201, job()) });
    expect(await screen.findByRole('heading', { name: 'Import from another blog' })).toBeTruthy();
    expect(screen.getByText(/WordPress, Ghost, Substack or Markdown/)).toBeTruthy();
    expect(screen.getByText('No imports yet.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Upload and check' })).toHaveProperty('disabled', true);
    await uploadExport(user);

    expect(await screen.findByRole('heading', { name: 'What the import would do' })).toBeTruthy();
    const [upload] = api.callsTo('POST', '/api/imports');
    expect((upload.body as FormData).get('file')).toBeInstanceOf(File);
    expect(((upload.body as FormData).get('file') as File).name).toBe('nour.WordPress.2026-11-20.xml');
    expect([count('To create'), count('To update'), count('Unchanged'), count('Skipped')]).toEqual(['2', '1', '0', '1']);
    expect(cells(rowOf('The Orchard at Dawn'))).toEqual(['Essay', 'English', 'العربية', 'Published', 'Mar 5, 2024', '2', 'Create', '']);
    expect(cells(rowOf('Salt and Sea'))).toEqual(['Essay', 'English', 'None', 'Draft', '', '0', 'Update', '']);
    expect(cells(rowOf('About me'))).toEqual(['Nothing', 'English', 'None', 'Published', '', '0', 'Skip', 'A page, not a post']);
    const warnings = screen.getByRole('region', { name: 'Warnings (1)' });
    expect(within(warnings).getByRole('listitem').textContent).toBe('The Orchard at Dawn: A gallery block was kept as its images only.');
    expect(screen.getByRole('button', { name: 'Import 3 items' })).toBeTruthy();
  });

  it('a category or tag checked as News is sent as the mapping, and the report comes back recomputed', async () => {
    let answer = () => {};
    const { api, user } = setup({
      'POST /api/imports': () => json(201, job()),
      // The report comes back when the test lets it (`answer`), so the meantime can be seen.
      'PUT /api/imports/7/mapping': ({ body }) => new Promise((resolve) => (answer = () => resolve(job({}, body as ImportMapping)))),
    });
    await uploadExport(user);
    expect(cells(await findRow('Reading in Ramallah'))[0]).toBe('Essay');
    const mapping = screen.getByRole('group', { name: 'What becomes News' });
    expect(within(mapping).getByRole('checkbox', { name: 'Essays (2)' })).toHaveProperty('checked', false);
    await user.click(within(mapping).getByRole('checkbox', { name: 'Announcements (1)' }));
    // Meanwhile: the box shows the choice, the boxes wait, the report is being updated.
    expect(within(mapping).getByRole('checkbox', { name: 'Announcements (1)' })).toHaveProperty('checked', true);
    expect(within(mapping).getByRole('checkbox', { name: 'events (1)' }).matches(':disabled')).toBe(true);
    expect(within(mapping).getByRole('status').textContent).toBe('Updating the report…');
    expect(cells(rowOf('Reading in Ramallah'))[0]).toBe('Essay');
    answer();
    await waitFor(() => expect(cells(rowOf('Reading in Ramallah'))[0]).toBe('News'));
    expect(within(mapping).getByRole('status').textContent).toBe('');
    expect(api.callsTo('PUT', '/api/imports/7/mapping').map((call) => call.body)).toEqual([
      { newsCategories: ['Announcements'], newsTags: [] },
    ]);
    expect(within(mapping).getByRole('checkbox', { name: 'Announcements (1)' })).toHaveProperty('checked', true);
    await user.click(within(mapping).getByRole('checkbox', { name: 'events (1)' }));
    answer();
    await waitFor(() => expect(within(mapping).getByRole('checkbox', { name: 'events (1)' }).matches(':disabled')).toBe(false));
    expect(api.callsTo('PUT', '/api/imports/7/mapping')).toHaveLength(2);
    expect(api.callsTo('PUT', '/api/imports/7/mapping')[1].body).toEqual({ newsCategories: ['Announcements'], newsTags: ['events'] });
  });
});

describe('Import: applying', () => {
  it('Import N items applies, then polls the import with a progress bar until it is done, with the warnings of applying', async () => {
    const progress = [
      { items: { done: 1, total: 3 }, images: { done: 0, total: 2 } },
      { items: { done: 3, total: 3 }, images: { done: 1, total: 2 } },
    ];
    // The import stays at its last progress until the test has seen it, then finishes.
    let reads = 0;
    let finished = false;
    const { api, user } = setup({
      'POST /api/imports': () => json(201, job()),
      'POST /api/imports/7/apply': () => json(202, job({ state: 'applying' })),
      'GET /api/imports/7': () => {
        reads++;
        if (!finished) return job({ state: 'applying', progress: progress[Math.min(reads, progress.length) - 1] });
        return job({
          state: 'done',
          finishedAt: '2026-11-26T09:05:00.000Z',
          progress: { items: { done: 3, total: 3 }, images: { done: 2, total: 2 } },
          applyWarnings: [{ title: 'Salt and Sea', message: 'An image could not be fetched (404): https://old.example/salt.jpg' }],
        });
      },
    });
    await uploadExport(user);
    await user.click(await screen.findByRole('button', { name: 'Import 3 items' }));
    expect(await screen.findByText('Importing…')).toBeTruthy();
    const bar = await screen.findByRole('progressbar', { name: 'Import progress' });
    await waitFor(() => expect(screen.getByText('Items: 3 of 3')).toBeTruthy());
    expect(screen.getByText('Images: 1 of 2')).toBeTruthy();
    expect(bar.getAttribute('value')).toBe('4');
    expect(bar.getAttribute('max')).toBe('5');
    const readsBeforeDone = reads;
    finished = true;

    expect(await screen.findByRole('heading', { name: 'Import finished' })).toBeTruthy();
    expect(
      screen.getByText('The items are in the Essays and News tabs; published ones go live on the site.', { selector: 'p' }),
    ).toBeTruthy();
    const warnings = screen.getByRole('region', { name: 'Warnings while importing (1)' });
    expect(within(warnings).getByRole('listitem').textContent).toBe(
      'Salt and Sea: An image could not be fetched (404): https://old.example/salt.jpg',
    );
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(reads).toBe(readsBeforeDone + 1);
    expect(api.callsTo('POST', '/api/imports/7/apply')).toHaveLength(1);
    expect(await screen.findByText('Import finished', { selector: '.ao-toast-title' })).toBeTruthy();
    // Done: no more reads (ten polling intervals later).
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(reads).toBe(readsBeforeDone + 1);
  });
});

/** What the apply of job() saved (the second is a draft). */
const RESULTS: ImportJob['results'] = [
  { sourceId: '11', title: 'The Orchard at Dawn', kind: 'essays', id: 21, action: 'create' },
  { sourceId: '12', title: 'Salt and Sea', kind: 'essays', id: 5, action: 'update' },
  { sourceId: '13', title: 'Reading in Ramallah', kind: 'news', id: 8, action: 'create' },
];

describe('Import: focus, announcements, what was done', () => {
  const status = () => document.querySelector('.ao-import > p[role="status"]')!;

  it('after "Upload and check" and after "Import N items" focus is on the report\'s heading and a live region says it', async () => {
    let finished = false;
    const done = job({
      state: 'done',
      finishedAt: '2026-11-26T09:05:00.000Z',
      results: RESULTS,
    });
    const { user } = setup({
      'POST /api/imports': () => json(201, job()),
      'POST /api/imports/7/apply': () => json(202, job({ state: 'applying' })),
      'GET /api/imports/7': () => (finished ? done : job({ state: 'applying' })),
    });
    const live = status();
    expect(live.textContent).toBe('');
    await uploadExport(user);
    const heading = await screen.findByRole('heading', { name: 'What the import would do' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(live.textContent).toBe('The report on \u2068nour.WordPress.2026-11-20.xml\u2069 is ready.');

    await user.click(screen.getByRole('button', { name: 'Import 3 items' }));
    expect(await screen.findByText('Importing…')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'What the import would do' })));
    expect(live.textContent).toBe('The import has started.');
    finished = true;

    const finishedHeading = await screen.findByRole('heading', { name: 'Import finished' });
    expect(document.activeElement).toBe(finishedHeading);
    await waitFor(() => expect(live.textContent).toBe('Import finished: 2 created, 1 updated.'));
    // What was done, not what would be: "Created 2", and each item linked.
    expect([count('Created'), count('Updated'), count('Unchanged'), count('Skipped')]).toEqual(['2', '1', '0', '1']);
    expect(screen.queryByText('To create', { selector: 'dt' })).toBeNull();
    const results = screen.getByRole('region', { name: 'Imported items (3)' });
    const orchard = within(results).getByRole('link', { name: 'The Orchard at Dawn' });
    expect([orchard.getAttribute('href'), orchard.getAttribute('target')]).toEqual(['/essays/21', '_blank']);
    expect(within(results).getByRole('link', { name: 'Reading in Ramallah' }).getAttribute('href')).toBe('/news/8');
    // A draft is not on the site: no link, and it says so.
    expect(within(results).queryByRole('link', { name: 'Salt and Sea' })).toBeNull();
    expect(within(results).getAllByRole('listitem')[1].textContent).toBe('Salt and Sea (essay updated, a draft, not on the site)');
  });

  it('a refused file: focus goes back to the file field, not to the page behind', async () => {
    const { user } = setup({ 'POST /api/imports': apiError(400, 'Not an export.') });
    await uploadExport(user);
    expect(await screen.findByText('Not an export.', { selector: '.ao-field-error' })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Export file'));
  });

  it("in Arabic: the report is announced, links go to the Arabic pages, the hint isolates each platform's name", async () => {
    document.documentElement.lang = 'ar';
    document.documentElement.dir = 'rtl';
    const done = job({
      state: 'done',
      results: RESULTS.slice(0, 2),
    });
    const { user } = setup({ 'POST /api/imports': () => json(201, job()), 'GET /api/imports': [done] });
    const hint = document.getElementById(screen.getByLabelText('ملف التصدير').getAttribute('aria-describedby')!.split(' ')[0])!;
    expect([...hint.querySelectorAll('bdi:not([dir])')].map((b) => b.textContent)).toEqual(['ووردبريس', 'Ghost', 'Substack', 'Markdown']);
    expect(hint.querySelectorAll('.ao-import-hint-line')[1].textContent).toBe('Ghost: الإعدادات ← تصدير (ملف .json، أو ملف .zip مع الصور)');
    expect([...hint.querySelectorAll('bdi[dir="ltr"]')].map((b) => b.textContent)).toEqual([
      '.xml',
      '.json',
      '.zip',
      '.zip',
      '.zip',
      '.md',
    ]);
    await user.upload(screen.getByLabelText('ملف التصدير'), exportFile());
    await user.click(screen.getByRole('button', { name: 'رفع وفحص' }));
    const heading = await screen.findByRole('heading', { name: 'ما سيفعله الاستيراد' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(status().textContent).toBe('التقرير عن \u2068nour.WordPress.2026-11-20.xml\u2069 جاهز.');
    await user.click(screen.getByRole('button', { name: 'فتح nour.WordPress.2026-11-20.xml' }));
    expect(count('أُنشئت')).toBe('1');
    expect(screen.getByRole('link', { name: 'The Orchard at Dawn' }).getAttribute('href')).toBe('/ar/essays/21');
    const draft = screen.getByText('Salt and Sea', { selector: 'li > bdi' }).parentElement!;
    expect(draft.textContent).toBe('Salt and Sea (مقالة محدَّثة، مسودة لا تظهر على الموقع)');
  });
});

describe('Import: errors, coming back, Arabic', () => {
  it('a bad file: the API’s message beside the field and in the toast; nothing opens', async () => {
    const message = 'This file is not a WordPress, Ghost or Substack export, nor a ZIP of Markdown files.';
    const { user } = setup({ 'POST /api/imports': apiError(400, message) });
    await uploadExport(user);
    expect(await screen.findByText('The file could not be imported')).toBeTruthy();
    expect(screen.getByText(`400: ${message}`)).toBeTruthy();
    expect(screen.getByText(message, { selector: '.ao-field-error' })).toBeTruthy();
    expect(screen.getByLabelText('Export file').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByRole('heading', { name: 'What the import would do' })).toBeNull();
  });

  it('a file over the limit, in Arabic: the API’s message by its key', async () => {
    document.documentElement.lang = 'ar';
    document.documentElement.dir = 'rtl';
    const { user } = setup({ 'POST /api/imports': keyedApiError(413, { key: 'error.importTooLarge', params: { mb: 200 } }) });
    await user.upload(await screen.findByLabelText('ملف التصدير'), exportFile());
    await user.click(screen.getByRole('button', { name: 'رفع وفحص' }));
    const sentence = messageText({ key: 'error.importTooLarge', params: { mb: 200 } }, 'ar');
    expect(await screen.findByText(`413: ${sentence}`)).toBeTruthy();
    expect(screen.getByText(sentence, { selector: '.ao-field-error' })).toBeTruthy();
  });

  it('coming back: past imports are listed, and one still applying opens by itself and is followed', async () => {
    const running = job({ state: 'applying', progress: { items: { done: 2, total: 3 }, images: { done: 0, total: 2 } } });
    let finished = false;
    const { api } = setup({
      'GET /api/imports': [running],
      'GET /api/imports/7': () => (finished ? job({ state: 'done' }) : running),
    });
    const past = await screen.findByRole('table', { name: 'Past imports' });
    expect(cells(within(past).getByRole('rowheader', { name: 'nour.WordPress.2026-11-20.xml' }).closest('tr')!).slice(0, 3)).toEqual([
      'WordPress',
      'Nov 26, 2026',
      'Importing',
    ]);
    expect(await screen.findByText('Items: 2 of 3')).toBeTruthy();
    await waitFor(() => expect(api.callsTo('GET', '/api/imports/7').length).toBeGreaterThan(0));
    finished = true;
    expect(await screen.findByRole('heading', { name: 'Import finished' })).toBeTruthy();
  });

  it('a past import opens from the list, and Delete removes it (not the items it imported)', async () => {
    let jobs: ImportJob[] = [job({ state: 'done', finishedAt: '2026-11-26T09:05:00.000Z' })];
    const { api, user } = setup({
      'GET /api/imports': () => jobs,
      'DELETE /api/imports/7': () => {
        jobs = [];
        return null;
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Open nour.WordPress.2026-11-20.xml' }));
    expect(screen.getByRole('heading', { name: 'Import finished' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Import \d+ items?$/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Delete nour.WordPress.2026-11-20.xml' }));
    expect(await screen.findByText('Import removed')).toBeTruthy();
    expect(api.callsTo('DELETE', '/api/imports/7')).toHaveLength(1);
    expect(await screen.findByText('No imports yet.')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Import finished' })).toBeNull();
  });

  it('in Arabic, right to left', async () => {
    document.documentElement.lang = 'ar';
    document.documentElement.dir = 'rtl';
    const { user } = setup({ 'POST /api/imports': () => json(201, job()) });
    expect(await screen.findByRole('heading', { name: 'الاستيراد من مدونة أخرى' })).toBeTruthy();
    await user.upload(screen.getByLabelText('ملف التصدير'), exportFile());
    await user.click(screen.getByRole('button', { name: 'رفع وفحص' }));
    expect(await screen.findByRole('heading', { name: 'ما سيفعله الاستيراد' })).toBeTruthy();
    expect(cells(rowOf('The Orchard at Dawn')).slice(0, 4)).toEqual(['مقالة', 'English', 'العربية', 'منشور']);
    expect(screen.getByRole('button', { name: 'استيراد العناصر (3)' })).toBeTruthy();
    expect(screen.getByRole('group', { name: 'ما يصبح خبرًا' })).toBeTruthy();
  });
});

const findRow = async (title: string) => (await screen.findByRole('rowheader', { name: title })).closest('tr') as HTMLElement;
