import { createContext, useContext, useEffect } from 'react';

export interface HeadData {
  title: string;
  description: string;
  /** Path of the canonical address, e.g. '/about'. */
  path?: string;
  /** An absolute http(s) address that replaces `path` as the canonical one (a post's override). */
  canonical?: string;
  /** Absolute or site-relative image for link previews. */
  image?: string;
  type?: 'website' | 'article';
  /** Structured data, each emitted as application/ld+json. */
  jsonLd?: object[];
  /** Set by pages that are not meant to be indexed (404, admin). */
  noindex?: boolean;
}

/** Receives the page's head during server rendering; the prerender step writes it into <head>. */
export const HeadContext = createContext<((head: HeadData) => void) | null>(null);

function setMeta(attr: 'name' | 'property', key: string, value: string) {
  let el = document.head.querySelector<HTMLMetaElement>(`meta[${attr}="${key}"]`);
  if (!el) {
    el = document.createElement('meta');
    el.setAttribute(attr, key);
    document.head.appendChild(el);
  }
  el.content = value;
}

/** Declares the page's title and description for the server render and for client navigation. */
export function PageMeta(props: HeadData) {
  const collectHead = useContext(HeadContext);
  collectHead?.(props);
  const { title, description } = props;
  useEffect(() => {
    document.title = title;
    setMeta('name', 'description', description);
    setMeta('property', 'og:title', title);
    setMeta('property', 'og:description', description);
  }, [title, description]);
  return null;
}
