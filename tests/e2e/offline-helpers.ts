import type { Page } from '@playwright/test';

/**
 * True once the page has kept a copy in IndexedDB (src/offline/cache.ts: database 'manna-offline',
 * store 'copies', key [store, key]), without creating the database itself. The copy is written
 * after the call that fetched it has answered, so a test that reloads to read it waits for this.
 */
export async function copyKept(page: Page, store: string, key: string): Promise<boolean> {
  return page.evaluate(
    async ([store, key]) => {
      const dbs = await indexedDB.databases();
      if (!dbs.some((d) => d.name === 'manna-offline')) return false;
      return new Promise<boolean>((resolve) => {
        const open = indexedDB.open('manna-offline');
        open.onerror = () => resolve(false);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('copies')) {
            db.close();
            resolve(false);
            return;
          }
          const get = db.transaction('copies').objectStore('copies').get([store, key]);
          get.onsuccess = () => {
            db.close();
            resolve(Boolean(get.result));
          };
          get.onerror = () => {
            db.close();
            resolve(false);
          };
        };
      });
    },
    [store, key] as const,
  );
}
