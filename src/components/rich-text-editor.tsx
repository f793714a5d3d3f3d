import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import ReactQuill, { Quill } from 'react-quill-new';
import 'react-quill-new/dist/quill.snow.css';
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

/** The blog's toolbar (issue 31): the spec's, with block quotes, code blocks and horizontal rules. */
export const BLOG_TOOLBAR = [
  [{ header: [1, 2, 3, false] }],
  ['bold', 'italic', 'underline', 'strike'],
  [{ list: 'ordered' }, { list: 'bullet' }],
  ['blockquote', 'code-block', 'divider'],
  ['link'],
  ['clean'],
];
const BLOG_MODULES = {
  toolbar: {
    container: BLOG_TOOLBAR,
    handlers: {
      divider(this: { quill: InstanceType<typeof Quill> }) {
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
const BLOG_FORMATS = [...FORMATS, 'blockquote', 'code-block', 'divider'];

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
  ['.ql-header .ql-picker-label', 'Heading'],
];

export interface RichTextEditorHandle {
  focus(): void;
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
  /** The blog's toolbar: block quotes, code blocks and horizontal rules too. */
  blocks?: boolean;
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
  ref,
}: RichTextEditorProps) {
  const quillRef = useRef<ReactQuill>(null);
  const wrapRef = useRef<HTMLDivElement>(null);

  useImperativeHandle(ref, () => ({
    focus: () => {
      const editor = quillRef.current?.getEditor();
      if (editor) editor.focus();
      else wrapRef.current?.querySelector<HTMLElement>('.ql-editor')?.focus();
    },
  }));

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
