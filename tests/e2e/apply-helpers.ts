import type { Page } from '@playwright/test';
import { samplePdf } from '../fixtures/files';

/** Fills the open Apply dialog with a valid application (a real PDF as the CV), without sending it. */
export async function fillApplication(page: Page, email: string) {
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Full Name').fill('Asha Menon');
  await dialog.getByLabel('Email Address').fill(email);
  await dialog.getByLabel('Contact Number').fill('9876543210');
  await dialog.getByRole('textbox', { name: 'Address', exact: true }).fill('12 MG Road, Kochi, Kerala');
  await dialog
    .getByLabel('Upload Your Current CV/Resume')
    .setInputFiles({ name: 'Asha Menon CV.pdf', mimeType: 'application/pdf', buffer: samplePdf() });
  await dialog.getByRole('checkbox').check();
}
