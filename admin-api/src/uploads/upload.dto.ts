import { UPLOAD_FOLDERS, type UploadFolder } from '@portfolio/contract/types';

import { OneOf } from '../common/validators.js';

export class UploadDto {
  @OneOf(UPLOAD_FOLDERS, { optional: true })
  contentType?: UploadFolder;
}
