// What browsers and Node alike can load: types, rules, messages and toast constants. The webhook
// protocol and the env readers use Node's crypto and fs: import them by their own subpaths.
export * from './kinds.js';
export * from './languages.js';
export * from './messages.js';
export * from './newsletter.js';
export * from './rules.js';
export * from './toasts.js';
export * from './tooltip.js';
export * from './translations.js';
export * from './types.js';
