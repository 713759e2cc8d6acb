// `client:focus` (src/lib/search/client-focus.ts, added in astro.config.mjs) on any island.
declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrates the island when focus first enters it. */
    'client:focus'?: boolean;
  }
}

export {};
