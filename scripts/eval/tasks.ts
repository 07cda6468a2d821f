// The eval's tasks on the vendored corpus: each is one or more user messages on one task and a
// success predicate read from the page itself (DOM state through CDP), never from the agent's words
// alone. Built to be phrased the way a user would, not fitted to one planner.
import type { Page } from 'playwright-core';
import { widgetTasks } from './widget-tasks.ts';

export interface EvalTask {
  id: string;
  site: 'todomvc-es6' | 'todomvc-react' | 'mdn-forms' | 'sqlite-doc' | 'widgets';
  /** The user's messages, in order, on one task (later ones continue the same conversation). */
  messages(base: string): string[];
  /** Reads the task tab's real state; `answer` is the agent's last reply (for reading tasks). */
  check(page: Page, answer: string): Promise<{ ok: boolean; detail: string }>;
}

interface TodoState {
  titles: string[];
  completed: string[];
  visible: string[];
  left: string;
  hash: string;
}

// No named inner functions in page.evaluate: tsx would wrap them in a `__name` helper the page lacks.
const todoState = (page: Page): Promise<TodoState> =>
  page.evaluate(() => {
    const items = Array.from(document.querySelectorAll('.todo-list li'));
    const titles = items.map((li) => (li.querySelector('label')?.textContent ?? '').trim());
    return {
      titles,
      completed: titles.filter((_t, i) => items[i]!.classList.contains('completed')),
      visible: titles.filter((_t, i) => (items[i] as HTMLElement).offsetParent !== null),
      left: (document.querySelector('.todo-count')?.textContent ?? '').replace(/\s+/g, ' ').trim(),
      hash: location.hash,
    };
  });

/** Same items in any order (TodoMVC's vanilla app lists the newest first, React's last). */
const same = (a: string[], b: string[]) =>
  a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i]);
/** "2 items left" / "2 items left!": the number, or null when there is no counter. */
const leftCount = (text: string) => {
  const m = /(\d+)\s+items?\s+left/.exec(text);
  return m ? Number(m[1]) : null;
};

function todoCheck(expect: {
  titles?: string[];
  completed?: string[];
  visible?: string[];
  left?: number;
  hash?: RegExp;
}) {
  return async (page: Page) => {
    const s = await todoState(page);
    const problems: string[] = [];
    if (expect.titles && !same(s.titles, expect.titles))
      problems.push(`todos ${JSON.stringify(s.titles)} != ${JSON.stringify(expect.titles)}`);
    if (expect.completed && !same(s.completed, expect.completed))
      problems.push(`completed ${JSON.stringify(s.completed)} != ${JSON.stringify(expect.completed)}`);
    if (expect.visible && !same(s.visible, expect.visible))
      problems.push(`visible ${JSON.stringify(s.visible)} != ${JSON.stringify(expect.visible)}`);
    if (expect.left !== undefined && leftCount(s.left) !== expect.left)
      problems.push(`counter "${s.left}" is not ${expect.left} items left`);
    if (expect.hash && !expect.hash.test(s.hash)) problems.push(`route "${s.hash}" does not match ${expect.hash}`);
    return {
      ok: problems.length === 0,
      detail:
        problems.join('; ') ||
        `todos ${JSON.stringify(s.titles)}, completed ${JSON.stringify(s.completed)}, "${s.left}"`,
    };
  };
}

function todoTasks(site: 'todomvc-es6' | 'todomvc-react', path: string): EvalTask[] {
  const url = (base: string) => `${base}/todomvc/${path}/index.html`;
  return [
    {
      id: `${site}: add one todo`,
      site,
      messages: (b) => [`Open ${url(b)} and add a todo called "Buy milk"`],
      check: todoCheck({ titles: ['Buy milk'], completed: [], left: 1 }),
    },
    {
      id: `${site}: add three todos`,
      site,
      messages: (b) => [`Open ${url(b)} and add three todos: "Alpha", "Beta" and "Gamma"`],
      check: todoCheck({ titles: ['Alpha', 'Beta', 'Gamma'], completed: [], left: 3 }),
    },
    {
      id: `${site}: complete one todo`,
      site,
      messages: (b) => [`Open ${url(b)} and add todos called "Alpha", "Beta" and "Gamma"`, 'Mark "Beta" as complete'],
      check: todoCheck({ titles: ['Alpha', 'Beta', 'Gamma'], completed: ['Beta'], left: 2 }),
    },
    {
      id: `${site}: active filter`,
      site,
      messages: (b) => [
        `Open ${url(b)} and add todos called "Alpha" and "Beta"`,
        'Mark "Alpha" as complete, then click Active',
      ],
      check: todoCheck({ visible: ['Beta'], hash: /^#\/active$/ }),
    },
    {
      id: `${site}: clear completed`,
      site,
      messages: (b) => [
        `Open ${url(b)} and add todos called "Alpha" and "Beta"`,
        'Mark "Alpha" as complete',
        'Click "Clear completed"',
      ],
      check: todoCheck({ titles: ['Beta'], completed: [], left: 1 }),
    },
    {
      id: `${site}: complete all`,
      site,
      messages: (b) => [`Open ${url(b)} and add todos called "Alpha" and "Beta"`, 'Mark all as complete'],
      check: todoCheck({ titles: ['Alpha', 'Beta'], completed: ['Alpha', 'Beta'], left: 0 }),
    },
  ];
}

const mdn = (base: string, path: string) => `${base}/mdn-forms/${path}`;

function formCheck<T>(read: () => T, test: (value: T) => boolean) {
  return async (page: Page) => {
    const value = await page.evaluate(read);
    return { ok: test(value), detail: JSON.stringify(value) };
  };
}

const formTasks: EvalTask[] = [
  {
    id: 'mdn: fill the first form',
    site: 'mdn-forms',
    messages: (b) => [
      `Open ${mdn(b, 'your-first-HTML-form/first-form.html')}, type "Ada Lovelace" into the name field, type "ada@example.com" into the e-mail field and type "Hello there" into the message field`,
    ],
    check: formCheck(
      () => ({
        name: (document.getElementById('name') as HTMLInputElement).value,
        mail: (document.getElementById('mail') as HTMLInputElement).value,
        msg: (document.getElementById('msg') as HTMLTextAreaElement).value,
      }),
      (v) => v.name === 'Ada Lovelace' && v.mail === 'ada@example.com' && v.msg === 'Hello there',
    ),
  },
  {
    id: 'mdn: choose an option of a multiple select',
    site: 'mdn-forms',
    messages: (b) => [`Open ${mdn(b, 'select-example/select-multiple.html')} and choose Cat in the pet select`],
    check: formCheck(
      () => Array.from((document.getElementById('pet-select') as HTMLSelectElement).selectedOptions, (o) => o.value),
      (v) => v.includes('cat'),
    ),
  },
  {
    id: 'mdn: check a labelled checkbox',
    site: 'mdn-forms',
    messages: (b) => [`Open ${mdn(b, 'html-form-structure/checkbox-label.html')} and check "I like banana"`],
    check: formCheck(
      () => ({
        cherry: (document.getElementById('taste_1') as HTMLInputElement).checked,
        banana: (document.getElementById('taste_2') as HTMLInputElement).checked,
      }),
      (v) => v.banana && !v.cherry,
    ),
  },
  {
    id: 'mdn: choose a radio button',
    site: 'mdn-forms',
    messages: (b) => [`Open ${mdn(b, 'html-form-structure/fieldset-legend.html')} and choose Medium`],
    check: formCheck(
      () => (document.querySelector('input[name="size"]:checked') as HTMLInputElement | null)?.value ?? null,
      (v) => v === 'medium',
    ),
  },
  {
    id: 'mdn: turn on a toggle switch',
    site: 'mdn-forms',
    messages: (b) => [`Open ${mdn(b, 'toggle-switch-example/index.html')} and turn on the power switch`],
    check: formCheck(
      () => (document.getElementById('power') as HTMLInputElement).checked,
      (v) => v === true,
    ),
  },
  {
    id: 'mdn: check one ingredient (indeterminate parent)',
    site: 'mdn-forms',
    messages: (b) => [`Open ${mdn(b, 'indeterminate-example/index.html')} and check Book`],
    check: formCheck(
      () => ({
        book: (document.getElementById('book') as HTMLInputElement).checked,
        parent: (document.getElementById('enchantment') as HTMLInputElement).indeterminate,
      }),
      (v) => v.book && v.parent,
    ),
  },
  {
    id: 'mdn: type into a number input',
    site: 'mdn-forms',
    messages: (b) => [`Open ${mdn(b, 'basic-input-examples/index.html')} and type 42 into the number field`],
    check: formCheck(
      () => (document.getElementById('number') as HTMLInputElement).value,
      (v) => v === '42',
    ),
  },
  {
    id: 'mdn: fill a required field',
    site: 'mdn-forms',
    messages: (b) => [
      `Open ${mdn(b, 'html-form-structure/required-labels.html')} and type "Grace Hopper" into the Name field`,
    ],
    check: formCheck(
      () => (document.getElementById('username') as HTMLInputElement).value,
      (v) => v === 'Grace Hopper',
    ),
  },
  {
    id: 'mdn: set a range',
    site: 'mdn-forms',
    messages: (b) => [`Open ${mdn(b, 'range-example/index.html')} and set the maximum house price to 300000`],
    check: formCheck(
      () => ({
        value: (document.getElementById('price') as HTMLInputElement).value,
        shown: document.querySelector('.price-output')?.textContent,
      }),
      (v) => v.value === '300000' && v.shown === '300000',
    ),
  },
];

const sqlite = (base: string) => `${base}/sqlite-doc/lang_select.html`;

const sqliteTasks: EvalTask[] = [
  {
    id: 'sqlite: summarise the 1.58 MB page',
    site: 'sqlite-doc',
    messages: (b) => [`Open ${sqlite(b)} and summarise it`],
    // The answer must name the page (its <title>) and at least three of the SQL keywords its own
    // section headings use (read from the DOM), so any faithful summary passes, not one wording.
    check: async (page, answer) => {
      const { title, terms } = await page.evaluate(() => ({
        title: document.title.trim(),
        terms: [
          ...new Set(
            Array.from(document.querySelectorAll('h1, h2')).flatMap(
              (h) => (h.textContent ?? '').match(/\b[A-Z]{4,}\b/g) ?? [],
            ),
          ),
        ],
      }));
      const named = terms.filter((t) => answer.includes(t));
      const ok = answer.includes(title) && named.length >= 3;
      return {
        ok,
        detail: `title "${title}" ${answer.includes(title) ? 'named' : 'missing'}; heading keywords named: ${named.join(', ') || 'none'} of ${terms.join(', ')}`,
      };
    },
  },
  {
    id: 'sqlite: follow a table-of-contents link',
    site: 'sqlite-doc',
    messages: (b) => [`Open ${sqlite(b)} and click "7. The WITH Clause"`],
    check: async (page) => {
      const hash = await page.evaluate(() => location.hash);
      return { ok: hash === '#the_with_clause', detail: `location.hash ${hash}` };
    },
  },
  {
    id: 'sqlite: follow a deep link',
    site: 'sqlite-doc',
    messages: (b) => [`Open ${sqlite(b)} and click "9.2. Precedence of comma-joins and CROSS JOIN"`],
    check: async (page) => {
      const hash = await page.evaluate(() => location.hash);
      return { ok: hash === '#precedence_of_comma_joins_and_cross_join', detail: `location.hash ${hash}` };
    },
  },
  {
    id: 'sqlite: a link past the context budget',
    site: 'sqlite-doc',
    // The only link named exactly so is near the end of the page, far outside the first page context.
    messages: (b) => [`Open ${sqlite(b)} and click "VALUES clause"`],
    check: async (page) => {
      const hash = await page.evaluate(() => location.hash);
      return { ok: hash === '#values', detail: `location.hash ${hash}` };
    },
  },
];

export const evalTasks: EvalTask[] = [
  ...todoTasks('todomvc-es6', 'javascript-es6'),
  ...todoTasks('todomvc-react', 'react'),
  ...formTasks,
  ...sqliteTasks,
  ...widgetTasks,
];
