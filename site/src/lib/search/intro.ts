import { SITE_ORDER } from '@portfolio/contract/kinds';
import type { Lang } from '@portfolio/contract/languages';

import { listText, t, type Vars } from '../../i18n';

/**
 * The search page's lead names every kind, in the site's order, from the kinds registry: a kind
 * without its word (`search.intro.<kind>` in the catalogues) fails to compile.
 */
export function searchIntroVars(lang: Lang): Vars {
  const kinds = listText(
    lang,
    SITE_ORDER.map((kind) => t(lang, `search.intro.${kind}`)),
  );
  return { kinds: kinds.charAt(0).toUpperCase() + kinds.slice(1) };
}
