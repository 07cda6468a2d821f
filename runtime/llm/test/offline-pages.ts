// Synthetic pages for the offline planner tests: readability-style text (with the messy
// whitespace textContent gives) and dom-index elements. Two unrelated sites, so that nothing
// passes by knowing one site.
import type { PageElement } from '../llm-types.ts';
import type { PageSpec, World } from './offline-world.ts';

export const TEA = 'http://tea.test';
export const CAFE = 'https://cafe.example';

const nav = (first: number): PageElement[] => [
  { clickId: first, tag: 'a', text: 'Home', href: '/' },
  { clickId: first + 1, tag: 'a', text: 'Products', href: '/products.html' },
  { clickId: first + 2, tag: 'a', text: 'Contact', href: '/form.html' },
];

export const teaPages: Record<string, PageSpec> = {
  [`${TEA}/article.html`]: {
    title: 'A Short History of the Teapot',
    text: `A Short History of the Teapot\n  By Ada Example, 12 March 2024\n  The teapot is one of the most familiar objects in the kitchen, yet its story spans more than a thousand years and three continents. Tea was first drunk in China, where leaves were boiled in open pots and ladled into bowls, long before anyone thought of a vessel made especially for brewing.\n  Yixing clay\n  The first true teapots appeared in the Yixing region during the Ming dynasty. Potters there shaped small, unglazed pots from a purple clay that absorbs a little of every brew.\n  Porcelain in Europe\n  European makers tried for decades to copy Chinese porcelain. The secret of hard-paste porcelain was found at Meissen in 1708.\n  The everyday pot\n  By the nineteenth century tea had become an everyday drink, and the brown glazed earthenware pot became a fixture of working homes. The teapot endures because it does one simple job well.`,
    elements: nav(1),
  },
  [`${TEA}/products.html`]: {
    title: 'Products',
    text: 'Products\n\n\n  \n  NamePrice\n  \n    Yixing Clay Teapot$48.00Add to cart\n    Porcelain Tea Set$120.50Add to cart\n    Brown Betty Teapot$32.99Add to cart\n    Cast Iron Kettle$75.00Add to cart\n    Bamboo Tea Whisk$9.95Add to cart\n  \n\nCart: 0 item(s). Last added: none',
    elements: [
      { clickId: 1, tag: 'a', text: 'Home', href: '/' },
      { clickId: 2, tag: 'a', text: 'Article', href: '/article.html' },
      ...[3, 4, 5, 6, 7].map((clickId) => ({ clickId, tag: 'button', text: 'Add to cart' })),
      { clickId: 8, tag: 'button', text: 'Far below the fold' },
    ],
  },
  [`${TEA}/form.html`]: {
    title: 'Contact form',
    text: 'Contact us\n  Name\n  Email\n  Topic\n  Message\n  Send\nEvents',
    elements: [
      { clickId: 1, tag: 'a', text: 'Home', href: '/' },
      { clickId: 2, tag: 'input', type: 'text', name: 'name', placeholder: 'Your name', text: 'Name' },
      { clickId: 3, tag: 'input', type: 'email', name: 'email', placeholder: 'you@example.com', text: 'Email' },
      { clickId: 4, tag: 'select', name: 'topic', text: 'Topic' },
      { clickId: 5, tag: 'textarea', name: 'message', text: 'Message' },
      { clickId: 6, tag: 'button', type: 'submit', text: 'Send' },
    ],
  },
  [`${TEA}/form-result.html`]: {
    title: 'Thank you',
    text: 'Thank you\nMessage received.\nName\nEmail\nMessage\nSend another',
    elements: [{ clickId: 1, tag: 'a', text: 'Send another', href: '/form.html' }],
  },
  [`${TEA}/new-tab.html`]: {
    title: 'Opens a new tab',
    text: 'Links\nOpen the article in a new tab\nProducts in this tab',
    elements: [
      { clickId: 1, tag: 'a', text: 'Open the article in a new tab', href: '/article.html', target: '_blank' },
      { clickId: 2, tag: 'a', text: 'Products in this tab', href: '/products.html' },
    ],
  },
  [`${TEA}/`]: {
    title: 'Fixture index',
    text: 'Fixture index\nA small static website.',
    elements: [
      { clickId: 1, tag: 'a', text: 'Article: the history of the teapot', href: '/article.html' },
      { clickId: 2, tag: 'a', text: 'Product list with prices', href: '/products.html' },
    ],
  },
};

export function teaWorld(): World {
  let cart = 0;
  return {
    pages: teaPages,
    onClick(url, element) {
      if (url.endsWith('/products.html') && element.text === 'Add to cart') {
        cart += 1;
        const base = teaPages[url]!;
        return { page: { ...base, text: base.text!.replace(/Cart: \d+ item\(s\)\. Last added: \w+/, `Cart: ${cart} item(s). Last added: Yixing Clay Teapot (trusted)`) } };
      }
      if (url.endsWith('/form.html') && element.text === 'Send') return { goto: `${TEA}/form-result.html` };
      return undefined;
    },
    onType(url, element, text, submit) {
      if (!url.endsWith('/form.html')) return undefined;
      if (!submit) return undefined;
      const base = teaPages[`${TEA}/form-result.html`]!;
      return { goto: `${TEA}/form-result.html?${element.name}=${encodeURIComponent(text)}`, page: { ...base, text: base.text!.replace('Name\n', `Name\n${text}\n`) } };
    },
  };
}

export const cafePages: Record<string, PageSpec> = {
  [`${CAFE}/menu`]: {
    title: 'Café Lumière: la carte',
    text: 'Café Lumière\nNotre carte du jour.\nCroissant au beurre — 2,40 €\nPain au chocolat — 2,80 €\nCafé crème — 3,50 €\nTarte Tatin — EUR 6\nQuestions? Ask at the counter.',
    elements: [
      { clickId: 1, tag: 'input', type: 'search', name: 'q', placeholder: 'Search the menu' },
      { clickId: 2, tag: 'button', text: 'Search' },
      { clickId: 3, tag: 'a', text: 'Next »', href: '/menu?page=2' },
      { clickId: 4, tag: 'a', text: 'Opening hours', href: '/hours' },
    ],
  },
  [`${CAFE}/menu?page=2`]: {
    title: 'Café Lumière: la carte (2)',
    text: 'Desserts\nMousse au chocolat 4,20 €\nCrème brûlée 4,90 €',
    elements: [{ clickId: 1, tag: 'a', text: '« Previous', href: '/menu' }],
  },
  [`${CAFE}/search`]: {
    title: 'Search results',
    text: 'Search results\n2 results for your search.\nCafé crème — 3,50 €\nCafé noir — 2,00 €',
    elements: [{ clickId: 1, tag: 'a', text: 'Back to the menu', href: '/menu' }],
  },
  [`${CAFE}/hours`]: {
    title: 'Opening hours',
    text: 'Opening hours\nWe are open every day from seven in the morning until six in the evening, except on public holidays.',
    elements: [],
  },
};

export function cafeWorld(): World {
  return {
    pages: cafePages,
    onType(url, _element, _text, submit) {
      return submit && url.startsWith(`${CAFE}/menu`) ? { goto: `${CAFE}/search` } : undefined;
    },
  };
}
