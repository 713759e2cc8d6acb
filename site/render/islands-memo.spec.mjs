// memoRenderer (render/islands-memo.mjs): an island is rendered once per distinct props, and each
// page still numbers its islands as @astrojs/react does.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { memoRenderer } from './islands-memo.mjs';

/** A stand-in for @astrojs/react's server renderer: markup from the props, and each call counted. */
function countingRenderer() {
  const calls = [];
  const counters = new WeakMap();
  return {
    calls,
    name: '@astrojs/react',
    check: async () => true,
    async renderToStaticMarkup(Component, props, slots) {
      calls.push(Component.name);
      const n = counters.get(this.result) ?? 0;
      counters.set(this.result, n + 1);
      return {
        html: `<${Component.name}>${JSON.stringify(props)}${Object.values(slots ?? {}).join('')}</${Component.name}>`,
        attrs: { prefix: `r${n}` },
      };
    },
  };
}
const Search = function Search() {};
const Switch = function Switch() {};
const render = (r, page, Component, props, slots = {}) =>
  r.renderToStaticMarkup.call({ result: page }, Component, props, slots, { hydrate: 'idle' });

describe('React islands rendered once per distinct props', () => {
  it('renders an island again only for props it has not seen, and numbers each page’s islands from r0', async () => {
    const inner = countingRenderer();
    const r = memoRenderer(inner);
    const en = { strings: { en: { 'nav.admin': 'Admin' }, ar: { 'nav.admin': 'الإدارة' } } };
    const pageA = {};
    const pageB = {};
    const a1 = await render(r, pageA, Search, en);
    const a2 = await render(r, pageA, Switch, en);
    const b1 = await render(r, pageB, Search, structuredClone(en));
    const b2 = await render(r, pageB, Switch, structuredClone(en));
    assert.deepEqual(inner.calls, ['Search', 'Switch'], 'the second page’s islands come from memory');
    assert.equal(b1.html, a1.html);
    assert.equal(b2.html, a2.html);
    assert.deepEqual([a1.attrs.prefix, a2.attrs.prefix, b1.attrs.prefix, b2.attrs.prefix], ['r0', 'r1', 'r0', 'r1']);

    const other = await render(r, {}, Search, { strings: { en: { 'nav.admin': 'Sign in' } } });
    assert.match(other.html, /Sign in/, 'other props: their own markup');
    assert.deepEqual(inner.calls, ['Search', 'Switch', 'Search']);
  });

  it('renders every time an island with children, a slot, or props that are not plain data', async () => {
    const inner = countingRenderer();
    const r = memoRenderer(inner);
    const page = {};
    for (let i = 0; i < 2; i++) {
      await render(r, page, Search, { label: 'x' }, { default: '<p>child</p>' });
      await render(r, page, Search, { label: 'x', children: 'text' });
      await render(r, page, Search, { onPick: () => {} });
      await render(r, page, Search, { picked: new Map([['a', 1]]) });
    }
    assert.equal(inner.calls.length, 8);
    const withSlot = await render(r, page, Search, { label: 'x' }, { default: '<p>other child</p>' });
    assert.match(withSlot.html, /other child/);
    assert.equal(withSlot.attrs.prefix, 'r8', 'numbered after the eight islands before it on the page');
  });
});
