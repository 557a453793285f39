import { eq } from 'drizzle-orm';
import type { FileStorage } from '../ports/fileStorage.ts';
import type { Executor } from '../../db/client.ts';
import { offeringCategories } from '../../db/offerings.schema.ts';
import { surveyCategories } from '../../db/surveys.schema.ts';
import { findUpload, confirmStoredUpload, ownImageUpload } from '../uploads/uploads.ts';
import { invalidField } from '../shared/userFacingError.ts';

/** The images of offering and survey categories, uploaded by an admin and shown to everyone. */

export const IMAGE_UPLOAD_ERROR = 'The image must be an image you have uploaded.';
export const IMAGE_NOT_FOUND_ERROR = 'Image not found';

/** Where the app shows a category image uploaded in the console: GET /api/v1/catalogue_images/{key} sends the browser to the file. */
export function catalogueImagePath(uploadKey: string): string {
  return `/api/v1/catalogue_images/${encodeURIComponent(uploadKey)}`;
}

/** The image columns of a category for an image the admin uploaded; a 422 on `image_upload_key` for any other key. */
export async function catalogueImageColumns(db: Executor, storage: FileStorage, adminUserId: number, key: string) {
  if (!(await ownImageUpload(db, storage, adminUserId, key))) throw invalidField('image_upload_key', IMAGE_UPLOAD_ERROR);
  return { imageUploadKey: key, imageUrl: catalogueImagePath(key) };
}

/** The stored image an address of catalogueImagePath names, while a category shows it; null otherwise. */
export async function findCatalogueImage(db: Executor, storage: FileStorage, uploadKey: string) {
  const [[offeringCategory], [surveyCategory]] = await Promise.all([
    db.select({ id: offeringCategories.id }).from(offeringCategories).where(eq(offeringCategories.imageUploadKey, uploadKey)).limit(1),
    db.select({ id: surveyCategories.id }).from(surveyCategories).where(eq(surveyCategories.imageUploadKey, uploadKey)).limit(1),
  ]);
  const row = offeringCategory || surveyCategory ? await findUpload(db, uploadKey) : null;
  return row ? confirmStoredUpload(db, storage, row) : null;
}
