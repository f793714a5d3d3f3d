/** The i18n namespace of the offline texts (update prompt, send queue, offline page notes). */
export const OFFLINE_NS = 'offline';
