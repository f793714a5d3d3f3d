/** Types of realistic.mjs (the Lighthouse bench's content, also used by tests/e2e/realistic-layout.spec.ts). */
export declare const REALISTIC_OWNER: { email: string; password: string };
export declare const REALISTIC_TAG: string;
/** Puts the content in through the API of the server at `origin` (its data folder `dataDir`). */
export declare function seedRealistic(o: {
  origin: string;
  dataDir: string;
}): Promise<{ postWithImages: string; tagPage: string }>;
