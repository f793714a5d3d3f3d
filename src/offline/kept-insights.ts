import { InsightsAnswer, type InsightFilters } from '../../contract/insights';
import { clearCopies, readCopy, saveCopy } from './cache';

/**
 * The Insights screen's last answers, kept on this device (cache.ts, area `insights`) for the
 * installed back office without a connection: one per question (range and filters) and user. Signing
 * out clears them (admin-app.live.ts).
 */

const keyOf = (userId: number, q: { from: string; to: string; filters: InsightFilters }) =>
  `${userId}:${q.from}:${q.to}:${JSON.stringify(Object.entries(q.filters).sort())}`;

export const keepInsights = async (
  userId: number,
  q: { from: string; to: string; filters: InsightFilters },
  answer: InsightsAnswer,
): Promise<void> => {
  await saveCopy('insights', keyOf(userId, q), answer);
};

/** The kept answer of this question, or null (none, or of an older shape). */
export async function keptInsights(
  userId: number,
  q: { from: string; to: string; filters: InsightFilters },
): Promise<{ value: InsightsAnswer; savedAt: string } | null> {
  const copy = await readCopy('insights', keyOf(userId, q));
  if (!copy) return null;
  const parsed = InsightsAnswer.safeParse(copy.value);
  return parsed.success ? { value: parsed.data, savedAt: copy.savedAt } : null;
}

/** Forgets every kept answer on this device. */
export const forgetInsights = (): Promise<void> => clearCopies('insights');
