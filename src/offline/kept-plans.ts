import { PlanRows, type PlanRow } from '../../contract/pricing';
import { readCopy, saveCopy } from './cache';

/** The last plans the pricing page showed, kept on this device for a visit without network (cache.ts). */

/** Where the last plans shown are kept for a visit without network . */
const KEPT = ['pricing', 'plans'] as const;

export interface KeptPlans {
  rows: PlanRow[];
  savedAt: string;
}

export const keepPlans = async (rows: PlanRow[]): Promise<void> => {
  await saveCopy(...KEPT, rows);
};

/** The kept plans, or null when none were kept or the copy no longer fits the contract. */
export async function keptPlans(): Promise<KeptPlans | null> {
  const copy = await readCopy(...KEPT);
  if (!copy) return null;
  const parsed = PlanRows.safeParse(copy.value);
  return parsed.success && parsed.data.length > 0 ? { rows: parsed.data, savedAt: copy.savedAt } : null;
}
