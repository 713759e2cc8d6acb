import { marked } from 'marked';

// Ghost stores a post's body as Lexical (Ghost 5+) or Mobiledoc JSON and, in most exports, its HTML too.
// These render only what the Markdown conversion needs, for exports whose HTML is missing.

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

type Node = Record<string, unknown> & { type?: string; children?: Node[] };

const str = (value: unknown) => (typeof value === 'string' ? value : '');
const image = (src: unknown, alt: unknown, caption: unknown) =>
  `<figure><img src="${escape(str(src))}" alt="${escape(str(alt))}">${caption ? `<figcaption>${str(caption)}</figcaption>` : ''}</figure>`;

function lexicalNode(node: Node): string {
  const inner = () => (node.children ?? []).map(lexicalNode).join('');
  switch (node.type) {
    case 'root':
      return inner();
    case 'paragraph':
      return `<p>${inner()}</p>`;
    case 'heading':
    case 'extended-heading':
      return `<${/^h[1-6]$/.test(str(node.tag)) ? str(node.tag) : 'h2'}>${inner()}</${/^h[1-6]$/.test(str(node.tag)) ? str(node.tag) : 'h2'}>`;
    case 'list':
      return node.listType === 'number' ? `<ol>${inner()}</ol>` : `<ul>${inner()}</ul>`;
    case 'listitem':
      return `<li>${inner()}</li>`;
    case 'quote':
    case 'aside':
    case 'extended-quote':
      return `<blockquote>${inner()}</blockquote>`;
    case 'link':
    case 'autolink':
      return `<a href="${escape(str(node.url))}">${inner()}</a>`;
    case 'text':
    case 'extended-text': {
      // Lexical's format bits: 1 bold, 2 italic.
      const format = typeof node.format === 'number' ? node.format : 0;
      const text = escape(str(node.text));
      const bold = format & 1 ? `<strong>${text}</strong>` : text;
      return format & 2 ? `<em>${bold}</em>` : bold;
    }
    case 'linebreak':
      return '<br>';
    case 'horizontalrule':
      return '<hr>';
    case 'image':
      return image(node.src, node.alt, node.caption);
    case 'gallery':
      return ((node.images as Node[]) ?? []).map((i) => image(i.src, i.alt, i.caption)).join('');
    case 'html':
      return str(node.html);
    case 'markdown':
      return marked.parse(str(node.markdown), { async: false });
    case 'codeblock':
      return `<pre>${escape(str(node.code))}</pre>`;
    case 'bookmark':
      return `<p><a href="${escape(str(node.url))}">${escape(str((node.metadata as Node)?.title) || str(node.url))}</a></p>`;
    case 'callout':
      return `<p>${str(node.calloutText)}</p>`;
    case 'toggle':
      return `<h3>${str(node.heading)}</h3>${str(node.content)}`;
    default:
      return node.children ? inner() : '';
  }
}

/** Lexical JSON as HTML; null when it is not Lexical. */
export function lexicalToHtml(json: string): string | null {
  try {
    const doc = JSON.parse(json) as { root?: Node };
    return doc.root ? lexicalNode(doc.root) : null;
  } catch {
    return null;
  }
}

type Marker = [number, number[], number, string | number];
interface Mobiledoc {
  markups?: [string, string[]?][];
  cards?: [string, Record<string, unknown>][];
  sections?: unknown[][];
}

function markers(doc: Mobiledoc, list: Marker[]): string {
  const open: string[] = [];
  let html = '';
  for (const [kind, opens, closes, value] of list) {
    for (const index of opens) {
      const [tag, attrs = []] = doc.markups?.[index] ?? ['span'];
      const pairs: string[] = [];
      for (let i = 0; i + 1 < attrs.length; i += 2) pairs.push(` ${attrs[i]}="${escape(attrs[i + 1])}"`);
      html += `<${tag}${pairs.join('')}>`;
      open.push(tag);
    }
    html += kind === 0 ? escape(String(value)) : '';
    for (let i = 0; i < closes; i++) html += `</${open.pop()}>`;
  }
  return (
    html +
    open
      .reverse()
      .map((tag) => `</${tag}>`)
      .join('')
  );
}

function mobiledocCard(name: string, payload: Record<string, unknown>): string {
  if (name === 'image') return image(payload.src, payload.alt, payload.caption);
  if (name === 'gallery') return ((payload.images as Node[]) ?? []).map((i) => image(i.src, i.alt, i.caption)).join('');
  if (name === 'markdown' || name === 'card-markdown') return marked.parse(str(payload.markdown), { async: false });
  if (name === 'html') return str(payload.html);
  if (name === 'code') return `<pre>${escape(str(payload.code))}</pre>`;
  if (name === 'hr') return '<hr>';
  if (name === 'bookmark')
    return `<p><a href="${escape(str(payload.url))}">${escape(str((payload.metadata as Node)?.title) || str(payload.url))}</a></p>`;
  return '';
}

/** Mobiledoc JSON as HTML; null when it is not Mobiledoc. */
export function mobiledocToHtml(json: string): string | null {
  let doc: Mobiledoc;
  try {
    doc = JSON.parse(json) as Mobiledoc;
  } catch {
    return null;
  }
  if (!Array.isArray(doc.sections)) return null;
  return doc.sections
    .map((section) => {
      const [kind] = section as [number];
      const tag = /^[a-z][a-z0-9]*$/.test(String(section[1])) ? String(section[1]) : 'p';
      if (kind === 1) return `<${tag}>${markers(doc, section[2] as Marker[])}</${tag}>`;
      if (kind === 3) return `<ul>${(section[2] as Marker[][]).map((item) => `<li>${markers(doc, item)}</li>`).join('')}</ul>`;
      if (kind === 2) return image(section[1], '', '');
      if (kind === 10) {
        const card = doc.cards?.[section[1] as number];
        return card ? mobiledocCard(card[0], card[1] ?? {}) : '';
      }
      return '';
    })
    .join('');
}
