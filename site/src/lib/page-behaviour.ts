/** Header and in-page navigation behaviour shared by every page (plain DOM, no framework). */
import { pagePath } from './page-path';
import { initTooltips } from './tooltips';

const SOLID_AFTER_PX = 10;
const ANCHOR_OFFSET_PX = 80;
const HASH_SCROLL_DELAY_MS = 100;

function scrollToHash(hash: string) {
  const id = decodeURIComponent(hash.replace(/^#/, ''));
  if (!id) return;
  window.setTimeout(() => {
    const target = document.getElementById(id);
    if (!target) return;
    const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    const top = target.getBoundingClientRect().top + window.scrollY - ANCHOR_OFFSET_PX;
    window.scrollTo({ top, behavior: reduce ? 'auto' : 'smooth' });
  }, HASH_SCROLL_DELAY_MS);
}

export function initPageBehaviour() {
  const header = document.querySelector<HTMLElement>('[data-site-header]');
  const onScroll = () => header?.classList.toggle('is-solid', window.scrollY > SOLID_AFTER_PX);
  onScroll();
  window.addEventListener('scroll', onScroll, { passive: true });

  const menuButton = document.querySelector<HTMLButtonElement>('[data-menu-button]');
  const menu = document.getElementById('site-menu');
  const setMenu = (open: boolean) => {
    menuButton?.setAttribute('aria-expanded', String(open));
    header?.classList.toggle('menu-open', open);
  };
  menuButton?.addEventListener('click', () => setMenu(menuButton.getAttribute('aria-expanded') !== 'true'));
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && menuButton?.getAttribute('aria-expanded') === 'true') {
      setMenu(false);
      menuButton.focus();
    }
  });
  menu?.addEventListener('click', (event) => {
    if ((event.target as HTMLElement).closest('a')) setMenu(false);
  });

  // Same-page hash links scroll with the header's height as offset, after a short delay.
  document.addEventListener('click', (event) => {
    const link = (event.target as HTMLElement).closest<HTMLAnchorElement>('a[href*="#"]');
    if (!link || link.origin !== location.origin || pagePath(link.pathname) !== pagePath(location.pathname) || !link.hash) return;
    event.preventDefault();
    history.pushState(null, '', link.hash);
    scrollToHash(link.hash);
  });
  if (location.hash) scrollToHash(location.hash);
  initTooltips();
}
