import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import ReactQuill, { Quill } from 'react-quill-new';
import 'react-quill-new/dist/quill.snow.css';
import { BLOG_IMAGE_TYPES } from '../../contract/blog';
import type { BlogTextImage } from '../../contract/blog-form';
import { BLOG_IMAGE_SIZES, BLOG_IMAGE_SRC } from '../../contract/rich-text-tags';
import s from './rich-text-editor.module.css';

/**
 * The rich-text editor of the back office: react-quill-new
 * (React 19) with exactly the spec's toolbar — headers 1 to 3, bold, italic, underline, strike,
 * ordered and bullet lists, link, clean — and links limited to http, https, mailto and tel.
 * `modules` and `formats` live at module scope (a new object would remount the editor). This
 * module is loaded lazily, only by admin screens (job form, blog form): quill never reaches a
 * public page. The server sanitises the HTML again when it is stored.
 */

// Links: only these protocols; anything else becomes about:blank, which the server drops.
const Link = Quill.import('formats/link') as { PROTOCOL_WHITELIST: string[] };
Link.PROTOCOL_WHITELIST = ['http', 'https', 'mailto', 'tel'];

export const TOOLBAR = [
  [{ header: [1, 2, 3, false] }],
  ['bold', 'italic', 'underline', 'strike'],
  [{ list: 'ordered' }, { list: 'bullet' }],
  ['link'],
  ['clean'],
];
const MODULES = { toolbar: TOOLBAR, clipboard: { matchVisual: false } };
const FORMATS = ['header', 'bold', 'italic', 'underline', 'strike', 'list', 'link'];

/**
 * A horizontal rule (<hr>) in the text: Quill has none of its own. Registered once; the blog's
 * toolbar inserts one where the cursor is.
 */
type EmbedClass = { new (...args: never[]): object; blotName: string; tagName: string };
const BlockEmbed = Quill.import('blots/block/embed') as EmbedClass;
class Divider extends BlockEmbed {
  static blotName = 'divider';
  static tagName = 'hr';
}
Quill.register(Divider as never, true);
(Quill.import('ui/icons') as Record<string, string>).divider =
  '<svg viewBox="0 0 18 18" aria-hidden="true"><line class="ql-stroke" x1="2" x2="16" y1="9" y2="9"></line></svg>';

/**
 * An image in a post's text: Quill's image, keeping what the upload answered (`srcset`, width and
 * height) and its alt text. Only images this site stored (BLOG_IMAGE_SRC) are made; the server's
 * sanitiser keeps no other either.
 */
type ImageValue = BlogTextImage & { alt: string };
type ImageClass = {
  new (...args: never[]): object;
  blotName: string;
  create(value: unknown): HTMLElement;
};
const BaseImage = Quill.import('formats/image') as ImageClass;
class TextImage extends BaseImage {
  static override create(value: ImageValue | string) {
    const image =
      typeof value === 'string' ? { src: value, srcset: '', width: 0, height: 0, alt: '' } : value;
    const node = super.create(BLOG_IMAGE_SRC.test(image.src) ? image.src : '') as HTMLImageElement;
    if (image.srcset) {
      node.setAttribute('srcset', image.srcset);
      node.setAttribute('sizes', BLOG_IMAGE_SIZES);
    }
    if (image.width > 0 && image.height > 0) {
      node.setAttribute('width', String(image.width));
      node.setAttribute('height', String(image.height));
    }
    node.setAttribute('alt', image.alt);
    return node;
  }
  static value(node: HTMLImageElement): ImageValue {
    return {
      src: node.getAttribute('src') ?? '',
      srcset: node.getAttribute('srcset') ?? '',
      width: Number(node.getAttribute('width')) || 0,
      height: Number(node.getAttribute('height')) || 0,
      alt: node.getAttribute('alt') ?? '',
    };
  }
  // everything is in the value: no format of its own to apply again
  static formats() {
    return {};
  }
}
Quill.register(TextImage as never, true);

/** The event the blog editor's image button, and a picture dropped or pasted, send to the screen. */
const IMAGE_EVENT = 'manna-text-image';
type ImageRequest = { index: number; file?: File };

/** The blog's toolbar (docs/decisions/025-blog-publishing.md): the spec's, with block quotes, code blocks, rules and images. */
export const BLOG_TOOLBAR = [
  [{ header: [1, 2, 3, false] }],
  ['bold', 'italic', 'underline', 'strike'],
  [{ list: 'ordered' }, { list: 'bullet' }],
  ['blockquote', 'code-block', 'divider'],
  ['link', 'image'],
  ['clean'],
];
type QuillHost = { quill: InstanceType<typeof Quill> };
const askForImage = (quill: InstanceType<typeof Quill>, request: ImageRequest) =>
  quill.root.dispatchEvent(new CustomEvent<ImageRequest>(IMAGE_EVENT, { bubbles: true, detail: request }));
const BLOG_MODULES = {
  // a picture dropped or pasted into the text opens the image panel with it (never base64 in the text)
  uploader: {
    mimetypes: BLOG_IMAGE_TYPES,
    handler(this: QuillHost, range: { index: number }, files: File[]) {
      if (files[0]) askForImage(this.quill, { index: range.index, file: files[0] });
    },
  },
  toolbar: {
    container: BLOG_TOOLBAR,
    handlers: {
      image(this: QuillHost) {
        askForImage(this.quill, { index: this.quill.getSelection(true).index });
      },
      divider(this: QuillHost) {
        const range = this.quill.getSelection(true);
        this.quill.insertEmbed(range.index, 'divider', true, 'user');
        // the text goes on in an ordinary paragraph, not in the quote or code the rule ended
        this.quill.formatLine(range.index + 1, 0, { 'code-block': false, blockquote: false }, 'user');
        this.quill.setSelection(range.index + 1, 0, 'silent');
      },
    },
  },
  clipboard: { matchVisual: false },
};
const BLOG_FORMATS = [...FORMATS, 'blockquote', 'code-block', 'divider', 'image'];

/** Accessible names for Quill's icon-only toolbar controls (axe: button-name). */
const BUTTON_NAMES: [string, string][] = [
  ['button.ql-bold', 'Bold'],
  ['button.ql-italic', 'Italic'],
  ['button.ql-underline', 'Underline'],
  ['button.ql-strike', 'Strikethrough'],
  ['button.ql-list[value="ordered"]', 'Numbered list'],
  ['button.ql-list[value="bullet"]', 'Bulleted list'],
  ['button.ql-link', 'Link'],
  ['button.ql-clean', 'Clear formatting'],
  ['button.ql-blockquote', 'Quote'],
  ['button.ql-code-block', 'Code block'],
  ['button.ql-divider', 'Horizontal rule'],
  ['button.ql-image', 'Image'],
  ['.ql-header .ql-picker-label', 'Heading'],
];

export interface RichTextEditorHandle {
  focus(): void;
  /** Puts an uploaded image with its alt text where the image was asked for (or at the end). */
  insertImage(image: BlogTextImage, alt: string): void;
}

export interface RichTextEditorProps {
  id: string;
  /** Accessible name of the editing area (the field's label). */
  label: string;
  value: string;
  onChange(html: string): void;
  placeholder?: string;
  disabled?: boolean;
  invalid?: boolean;
  /** id of the element describing an error, when shown. */
  describedBy?: string;
  /** The blog's toolbar: block quotes, code blocks, horizontal rules and images too. */
  blocks?: boolean;
  /**
   * The image button was pressed, or a picture dropped or pasted (`file`): the screen asks for the
   * file and its alt text, uploads it, and calls `insertImage`.
   */
  onImage?: (file?: File) => void;
  ref?: Ref<RichTextEditorHandle>;
}

/**
 * What a paste from another editor (Google Docs, Word) keeps: its structure (headings, lists,
 * links, bold, italic); the underline and strike-through it draws under links and the rest go
 * (colours, fonts and sizes are not among the editor's formats at all). Quill then reads it.
 */
function cleanPastedHtml(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  doc.querySelectorAll<HTMLElement>('[style]').forEach((el) => {
    el.style.removeProperty('text-decoration');
    el.style.removeProperty('text-decoration-line');
  });
  doc
    .querySelectorAll('u, s, strike, ins, del')
    .forEach((el) => el.replaceWith(...Array.from(el.childNodes)));
  // another site's picture (or one inlined as data:) is not copied into the post: it goes up
  // through the image panel, with its alt text
  doc.querySelectorAll('img').forEach((img) => {
    if (!BLOG_IMAGE_SRC.test(img.getAttribute('src') ?? '')) img.remove();
  });
  return doc.body.innerHTML;
}

export default function RichTextEditor({
  id,
  label,
  value,
  onChange,
  placeholder,
  disabled,
  invalid,
  describedBy,
  blocks = false,
  onImage,
  ref,
}: RichTextEditorProps) {
  const quillRef = useRef<ReactQuill>(null);
  const wrapRef = useRef<HTMLDivElement>(null);
  /** Where the image asked for goes. */
  const imageAt = useRef<number | null>(null);
  const onImageRef = useRef(onImage);
  useEffect(() => {
    onImageRef.current = onImage;
  });

  useImperativeHandle(ref, () => ({
    focus: () => {
      const editor = quillRef.current?.getEditor();
      if (editor) editor.focus();
      else wrapRef.current?.querySelector<HTMLElement>('.ql-editor')?.focus();
    },
    insertImage: (image, alt) => {
      const quill = quillRef.current?.getEditor();
      if (!quill) return;
      const index = Math.min(imageAt.current ?? quill.getLength() - 1, quill.getLength() - 1);
      imageAt.current = null;
      quill.insertEmbed(index, 'image', { ...image, alt } satisfies ImageValue, 'user');
      // the text goes on in a paragraph of its own under the image
      quill.insertText(index + 1, '\n', 'user');
      quill.setSelection(index + 2, 0, 'user');
    },
  }));

  // the image button, or a picture dropped or pasted: the screen asks for the file and its alt text
  useEffect(() => {
    const wrap = wrapRef.current;
    if (!wrap) return;
    const ask = (event: Event) => {
      const { index, file } = (event as CustomEvent<ImageRequest>).detail;
      imageAt.current = index;
      onImageRef.current?.(file);
    };
    wrap.addEventListener(IMAGE_EVENT, ask);
    return () => wrap.removeEventListener(IMAGE_EVENT, ask);
  }, []);

  // Quill may build its toolbar again after this component rendered (a remount of the editor with
  // no render of ours): name its controls whenever its DOM changes, not only after our renders.
  useEffect(() => {
    const wrap = wrapRef.current;
    if (!wrap) return;
    const name = () => {
      for (const [selector, label] of BUTTON_NAMES) {
        wrap.querySelectorAll(selector).forEach((el) => {
          if (el.getAttribute('aria-label') !== label) el.setAttribute('aria-label', label);
        });
      }
    };
    name();
    const observer = new MutationObserver(name);
    observer.observe(wrap, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);

  // A paste with HTML is cleaned before Quill reads it (cleanPastedHtml); plain text is Quill's.
  useEffect(() => {
    const root = wrapRef.current?.querySelector<HTMLElement>('.ql-editor');
    const quill = quillRef.current?.getEditor();
    if (!root || !quill) return;
    const onPaste = (event: ClipboardEvent) => {
      const html = event.clipboardData?.getData('text/html');
      if (!html || !event.clipboardData || quill.getFormat()['code-block']) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      const text = event.clipboardData.getData('text/plain');
      const range = quill.getSelection(true);
      (
        quill.clipboard as unknown as { onPaste(r: unknown, d: { html: string; text: string }): void }
      ).onPaste(range, { html: cleanPastedHtml(html), text });
    };
    root.addEventListener('paste', onPaste, { capture: true });
    return () => root.removeEventListener('paste', onPaste, { capture: true });
  }, []);

  // Names and state for assistive technology on Quill's own DOM.
  useEffect(() => {
    const wrap = wrapRef.current;
    if (!wrap) return;
    for (const [selector, name] of BUTTON_NAMES) {
      wrap.querySelectorAll(selector).forEach((el) => el.setAttribute('aria-label', name));
    }
    wrap.querySelectorAll('.ql-toolbar button').forEach((el) => {
      (el as HTMLButtonElement).disabled = !!disabled;
    });
    const root = wrap.querySelector<HTMLElement>('.ql-editor');
    if (!root) return;
    root.id = `${id}-editor`;
    root.setAttribute('role', 'textbox');
    root.setAttribute('aria-multiline', 'true');
    root.setAttribute('aria-label', label);
    root.setAttribute('aria-disabled', disabled ? 'true' : 'false');
    if (invalid) root.setAttribute('aria-invalid', 'true');
    else root.removeAttribute('aria-invalid');
    if (describedBy) root.setAttribute('aria-describedby', describedBy);
    else root.removeAttribute('aria-describedby');
    // Quill reads the placeholder once; keep it current (locked fields say so).
    root.setAttribute('data-placeholder', placeholder ?? '');
  });

  return (
    <div
      ref={wrapRef}
      className={`${s.editor} ${disabled ? s.disabled : ''} ${invalid ? s.invalid : ''}`}
      data-testid={id}
    >
      <ReactQuill
        ref={quillRef}
        theme="snow"
        value={value}
        modules={blocks ? BLOG_MODULES : MODULES}
        formats={blocks ? BLOG_FORMATS : FORMATS}
        placeholder={placeholder}
        readOnly={disabled}
        onChange={(html, _delta, source) => {
          if (source === 'user') onChange(html);
        }}
      />
    </div>
  );
}
