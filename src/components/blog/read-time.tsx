import { useTranslation } from 'react-i18next';
import { READ_TIME_PATTERN } from '../../../contract/blog';

/**
 * A post's read time in the page's language: the stored text is the spec's "X min read" (the
 * form's rule), said again as the page's language says it ("5 Min. Lesezeit"); a text in another
 * shape (a customer's backend) is shown as it came.
 */
export function ReadTime({ text }: { text: string }) {
  const { t } = useTranslation('blog');
  const shaped = READ_TIME_PATTERN.test(text.trim());
  return <span>{shaped ? t('readTime', { count: parseInt(text, 10) }) : text}</span>;
}
