// Pages for the offline planner tests: fixtures/site as captured from the real stack, and a
// hand-made café site with richer element attributes, so that nothing passes by knowing one site.
import type { PageSpec, World } from './offline-world.ts';

export const TEA = 'http://tea.test';
export const CAFE = 'https://cafe.example';

/**
 * fixtures/site as the real stack sees it: captured in Chromium with the extension's own
 * readability and dom-index page ops, reduced by the orchestrator's pageContextOf. The dom index
 * gives only clickId, tag and text (no href/target/type/name), and labels are elements too.
 */
export const teaPages: Record<string, PageSpec> = {
  [`${TEA}/article.html`]: {
    title: 'A Short History of the Teapot',
    text: 'The teapot is one of the most familiar objects in the kitchen, yet its story spans more than a thousand years and three continents. Tea was first drunk in China, where leaves were boiled in open pots and ladled into bowls, long before anyone thought of a vessel made especially for brewing.\nYixing clay\nThe first true teapots appeared in the Yixing region during the Ming dynasty. Potters there shaped small, unglazed pots from a purple clay that absorbs a little of every brew, so that an old pot is said to make tea even when filled with plain hot water. Collectors still prize these pots today.\nMerchants carried tea and porcelain westward along the sea routes. When tea reached Europe in the seventeenth century, the pots came with it, packed in the holds of ships alongside the chests of leaves.\nPorcelain in Europe\nEuropean makers tried for decades to copy Chinese porcelain. The secret of hard-paste porcelain was found at Meissen in 1708, and within a generation factories across the continent were producing teapots in every imaginable shape: melons, cabbages, camels and castles.\n\nMeissen, Saxony: the first European hard-paste porcelain.\nSèvres, France: soft-paste porcelain in bright enamel colours.\nStaffordshire, England: earthenware and bone china for the mass market.\n\nThe everyday pot\nBy the nineteenth century tea had become an everyday drink, and the brown glazed earthenware pot became a fixture of working homes. Its shape, a round body that lets the leaves move freely, is still the one most tea drinkers reach for. The teapot endures because it does one simple job well.',
    elements: [
      { clickId: 1, tag: 'a', text: 'Home' },
      { clickId: 2, tag: 'a', text: 'Products' },
      { clickId: 3, tag: 'a', text: 'Contact' },
      { clickId: 4, tag: 'a', text: 'Back to the index' },
    ],
  },
  [`${TEA}/products.html`]: {
    title: 'Products',
    text: 'HomeArticle\n\nNamePrice\n\nYixing Clay Teapot$48.00\nPorcelain Tea Set$120.50\nBrown Betty Teapot$32.99\nCast Iron Kettle$75.00\nBamboo Tea Whisk$9.95\n\nCart: 0 item(s). Last added: none\n\nnot clicked\nEvents',
    elements: [
      { clickId: 1, tag: 'a', text: 'Home' },
      { clickId: 2, tag: 'a', text: 'Article' },
      { clickId: 3, tag: 'button', text: 'Add to cart' },
      { clickId: 4, tag: 'button', text: 'Add to cart' },
      { clickId: 5, tag: 'button', text: 'Add to cart' },
      { clickId: 6, tag: 'button', text: 'Add to cart' },
      { clickId: 7, tag: 'button', text: 'Add to cart' },
      { clickId: 8, tag: 'button', text: 'Far below the fold' },
    ],
  },
  [`${TEA}/form.html`]: {
    title: 'Contact form',
    text: 'Home\n\nName\n\nEmail\n\nTopic\n\nMessage\n\nEvents',
    elements: [
      { clickId: 1, tag: 'a', text: 'Home' },
      { clickId: 2, tag: 'label', text: 'Name' },
      { clickId: 3, tag: 'input', text: 'Your name' },
      { clickId: 4, tag: 'label', text: 'Email' },
      { clickId: 5, tag: 'input', text: 'you@example.com' },
      { clickId: 6, tag: 'label', text: 'Topic' },
      { clickId: 7, tag: 'select', text: 'Order' },
      { clickId: 8, tag: 'label', text: 'Message' },
      { clickId: 9, tag: 'textarea', text: 'message' },
      { clickId: 10, tag: 'button', text: 'Send' },
    ],
  },
  [`${TEA}/new-tab.html`]: {
    title: 'Opens a new tab',
    text: 'Links\nOpen the article in a new tab\nProducts in this tab',
    elements: [
      { clickId: 1, tag: 'a', text: 'Open the article in a new tab' },
      { clickId: 2, tag: 'a', text: 'Products in this tab' },
    ],
  },
  [`${TEA}/dynamic.html`]: {
    title: 'Dynamic page',
    text: 'Dynamic list\n\nPicked: nothing',
    elements: [
      { clickId: 1, tag: 'button', text: 'Load more' },
      { clickId: 2, tag: 'button', text: 'Replace the list' },
      { clickId: 3, tag: 'button', text: 'Item 1' },
      { clickId: 4, tag: 'button', text: 'Item 2' },
    ],
  },
  [`${TEA}/form-result.html`]: {
    title: 'Thank you',
    text: 'Message received.\n\nName\nEmail\nMessage\n\nSend another',
    elements: [{ clickId: 1, tag: 'a', text: 'Send another' }],
  },
  [`${TEA}/`]: {
    title: 'Mimo fixture site',
    text: 'A small static website for the end-to-end tests and the demo.\n\nArticle: the history of the teapot\nProduct list with prices\nContact form\nPage with a link that opens a new tab\nSlow-loading page\nPage whose content changes after a click',
    elements: [
      { clickId: 1, tag: 'a', text: 'Article: the history of the teapot' },
      { clickId: 2, tag: 'a', text: 'Product list with prices' },
      { clickId: 3, tag: 'a', text: 'Contact form' },
      { clickId: 4, tag: 'a', text: 'Page with a link that opens a new tab' },
      { clickId: 5, tag: 'a', text: 'Slow-loading page' },
      { clickId: 6, tag: 'a', text: 'Page whose content changes after a click' },
    ],
  },
};

/** fixtures/site's behaviour: links by their text (the dom index gives no href), the cart, the form. */
export function teaWorld(): World {
  const links: Record<string, string> = {
    Home: '/',
    'Back to the index': '/',
    Products: '/products.html',
    'Products in this tab': '/products.html',
    'Product list with prices': '/products.html',
    Article: '/article.html',
    'Article: the history of the teapot': '/article.html',
    Contact: '/form.html',
    'Contact form': '/form.html',
    'Send another': '/form.html',
    'Page with a link that opens a new tab': '/new-tab.html',
  };
  let cart = 0;
  const values: Record<string, string> = {};
  const fieldOf: Record<string, string> = { 'Your name': 'name', 'you@example.com': 'email', message: 'message' };
  const result = () => {
    const query = new URLSearchParams(values).toString();
    return {
      goto: `${TEA}/form-result.html?${query}`,
      page: {
        ...teaPages[`${TEA}/form-result.html`]!,
        text: `Message received.\n\nName${values.name ?? ''}\nEmail${values.email ?? ''}\nMessage${values.message ?? ''}\n\nSend another`,
      },
    };
  };
  return {
    pages: teaPages,
    onClick(url, element) {
      const text = element.text ?? '';
      if (element.tag === 'a' && text === 'Open the article in a new tab') return { newTab: `${TEA}/article.html` };
      if (element.tag === 'a' && links[text]) return { goto: `${TEA}${links[text]}` };
      if (url.endsWith('/products.html') && text === 'Add to cart') {
        cart += 1;
        const base = teaPages[url]!;
        const row = [
          'Yixing Clay Teapot',
          'Porcelain Tea Set',
          'Brown Betty Teapot',
          'Cast Iron Kettle',
          'Bamboo Tea Whisk',
        ][element.clickId - 3];
        return {
          page: {
            ...base,
            text: base.text!.replace(
              /Cart: \d+ item\(s\)\. Last added: \w+/,
              `Cart: ${cart} item(s). Last added: ${row} (trusted)`,
            ),
          },
        };
      }
      if (url.endsWith('/form.html') && text === 'Send') return result();
      return {};
    },
    onType(url, element, text, submit) {
      if (!url.endsWith('/form.html')) return undefined;
      const field = fieldOf[element.text ?? ''];
      if (field) values[field] = text;
      return submit ? result() : undefined;
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
