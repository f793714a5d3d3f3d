export { isLang, type Lang } from './languages';
export { rememberLanguage } from './i18n';
