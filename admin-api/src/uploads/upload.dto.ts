import { OneOf } from '../common/validators.js';

export const UPLOAD_FOLDERS = ['books', 'essays', 'artworks', 'news', 'plays', 'general'] as const;
export type UploadFolder = (typeof UPLOAD_FOLDERS)[number];

export class UploadDto {
  @OneOf(UPLOAD_FOLDERS, { optional: true })
  contentType?: UploadFolder;
}
