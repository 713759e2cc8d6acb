import type { ClientDirective } from 'astro';

/**
 * `client:focus`: an island's code loads and hydrates when focus first enters it (a click, a tap or
 * Tab), so a page ships no code for it before. Registered in astro.config.mjs; used by the header's
 * search box (islands/search-box.tsx).
 */
const focus: ClientDirective = (load, _options, el) => {
  el.addEventListener(
    'focusin',
    async () => {
      const hydrate = await load();
      await hydrate();
    },
    { once: true },
  );
};
export default focus;
