import { useTranslation } from 'react-i18next';

/**
 * A post's read time in the page's language: the stored text is the spec's "X min read" (the
 * form's rule), said again as the page's language says it ("5 Min. Lesezeit"); a text in another
 * shape (a customer's backend) is shown as it came.
 */
export function ReadTime({ text }: { text: string }) {
  const { t } = useTranslation('blog');
  const minutes = /^\s*(\d{1,4})\s*min\b/i.exec(text);
  return <span>{minutes ? t('readTime', { count: Number(minutes[1]) }) : text}</span>;
}
