/**
 * Spec "Other": the F12 key, the inspector shortcuts and the right-click menu are blocked (the
 * menu is left to form fields).
 * On in production builds of public pages only; VITE_BLOCK_INSPECT=false turns it off.
 */
export function isInspectShortcut(
  e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>,
): boolean {
  const key = e.key.toUpperCase();
  if (key === 'F12') return true;
  const mod = e.ctrlKey || e.metaKey;
  if (mod && e.shiftKey && ['I', 'J', 'C', 'K'].includes(key)) return true; // devtools, console, picker
  if (mod && e.altKey && ['I', 'J', 'C'].includes(key)) return true; // macOS variants
  if (mod && !e.shiftKey && key === 'U') return true; // view source
  return false;
}

/**
 * Where the right-click menu stays: form fields, so paste, spelling suggestions and the other
 * editing commands of the menu work while the rest of a public page keeps it blocked.
 */
export function isEditable(target: EventTarget | null): boolean {
  const el = target as (Element & { isContentEditable?: boolean }) | null;
  if (!el || typeof el.closest !== 'function') return false;
  return el.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]') !== null;
}

export function installInspectBlock(isPublicPage: () => boolean): () => void {
  const onKey = (e: KeyboardEvent) => {
    if (isPublicPage() && isInspectShortcut(e)) e.preventDefault();
  };
  const onContextMenu = (e: MouseEvent) => {
    if (isPublicPage() && !isEditable(e.target)) e.preventDefault();
  };
  window.addEventListener('keydown', onKey, true);
  window.addEventListener('contextmenu', onContextMenu, true);
  return () => {
    window.removeEventListener('keydown', onKey, true);
    window.removeEventListener('contextmenu', onContextMenu, true);
  };
}
