import { config } from '../config';
import { fetchJson, jsonBody } from './client';
import { ContactMessageAnswer, type ContactMessageInput } from '../../contract/contact';

/** The address contact messages are posted to (the send queue keeps it with an offline message). */
export const contactMessagesUrl = () => `${config.websiteApi}/contact-messages`;

/** POST contact-messages: one Idempotency-Key per submission. */
export const sendContactMessage = (message: ContactMessageInput, idempotencyKey: string) =>
  fetchJson(
    ContactMessageAnswer,
    contactMessagesUrl(),
    jsonBody(message, 'POST', idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
  );
