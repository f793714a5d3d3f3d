import {
  WEBHOOK_FIELDS,
  WEBHOOK_ERROR_CODES,
  eventsOf,
  webhookFormErrors,
  type WebhookBody,
  type WebhookErrorCode,
  type WebhookField,
  type WebhookFormValues,
  type WebhookRow,
} from '../../contract/webhooks';
import { codesFor } from '../../contract/form-rules';
import { recordEditor, type RecordEditorContext } from './record-editor.machine';

/**
 * The 'Add endpoint' / 'Edit endpoint' dialog of the Webhooks screen: a record editor
 * (record-editor.machine.ts, docs/decisions/036-record-editor.md) with what is an endpoint's own:
 * its address, a description, the events it wants (the form's checkboxes write them as a list) and
 * whether it is active. The server also refuses an address on a private network (`urlPrivate`)
 * and, on a production site, a public one that is not https:// (`urlHttps`), shown on the field
 * like the form's own errors.
 */
export type WebhookEditorFields = WebhookFormValues & { enabled: boolean };
export type WebhookEditorContext = RecordEditorContext<
  WebhookRow,
  WebhookEditorFields,
  WebhookField,
  WebhookErrorCode,
  null
>;

export const WEBHOOK_EDITOR_FIELDS = [...WEBHOOK_FIELDS, 'enabled'] as const;

export const webhookFieldsOf = (row: WebhookRow): WebhookEditorFields => ({
  url: row.url,
  description: row.description,
  events: row.events.join(','),
  enabled: row.enabled,
});

/** What the save sends, and the endpoint and version a change is based on. */
export interface SaveWebhookInput {
  body: WebhookBody;
  id: number | undefined;
  version: number | undefined;
}

export const webhookEditorMachine = recordEditor<
  WebhookRow,
  WebhookEditorFields,
  WebhookField,
  WebhookErrorCode,
  null,
  SaveWebhookInput
>({
  id: 'webhookEditor',
  fields: WEBHOOK_EDITOR_FIELDS,
  empty: { url: '', description: '', events: '', enabled: true },
  fieldsOf: webhookFieldsOf,
  idOf: (row) => row.endpoint_id,
  // the events as a set, whatever order they were ticked in
  read: (field, value) => (field === 'events' ? eventsOf(String(value)).join(',') : String(value).trim()),
  // where the address points and the https rule are the server's to say
  errorsOf: ({ fields }) => webhookFormErrors(fields),
  errorFields: WEBHOOK_FIELDS,
  serverErrors: (error) =>
    codesFor(
      (error as { codes?: Record<string, string> } | null)?.codes,
      WEBHOOK_FIELDS,
      WEBHOOK_ERROR_CODES,
      'urlInvalid',
    ),
  joinable: () => false,
  saveInput: ({ fields, mode, recordId, version }) => ({
    body: {
      url: fields.url.trim(),
      description: fields.description.trim(),
      events: eventsOf(fields.events),
      enabled: fields.enabled,
    },
    id: mode === 'edit' ? recordId : undefined,
    version: mode === 'edit' ? (version ?? undefined) : undefined,
  }),
});
