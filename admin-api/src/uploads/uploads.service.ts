import { randomBytes } from 'node:crypto';

import {
  BadRequestException,
  HttpException,
  HttpStatus,
  Injectable,
  Logger,
  ServiceUnavailableException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import type { UploadFolder } from '@portfolio/contract/types';
import type { Metadata } from 'sharp';

import { refusal } from '../common/api-message.js';
import { ImageVariantJobs } from '../image-variants/image-variant-jobs.js';
import { FileStorage } from './file-storage.js';
import { MAX_IMAGE_PIXELS } from './image-limits.js';
import { sniffFileType } from './sniff.js';

@Injectable()
export class UploadsService {
  private readonly logger = new Logger('Uploads');

  constructor(
    private readonly storage: FileStorage,
    private readonly variants: ImageVariantJobs,
  ) {}

  async store(file: Express.Multer.File | undefined, folder: UploadFolder = 'general') {
    if (!file?.buffer?.length) {
      throw new BadRequestException(refusal('validation.chooseFile', { field: 'file' }));
    }
    const type = sniffFileType(file.buffer);
    if (!type) {
      throw new UnsupportedMediaTypeException(refusal('error.fileType'));
    }
    let data = file.buffer;
    let base = `${Date.now().toString(36)}-${randomBytes(8).toString('hex')}`;
    if (type.kind === 'image') {
      const image = await this.cleanImage(data);
      data = image.data;
      // The size in the name lets the site lay the image out without downloading it again.
      base += `-${image.width}x${image.height}`;
    }
    let url: string;
    try {
      url = await this.storage.save(folder, `${base}.${type.ext}`, data);
    } catch (error) {
      // The bucket (or disk) refused or is away: say so, keep nothing half-done (a PUT is whole or absent).
      this.logger.error(`An upload could not be stored: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
      throw new ServiceUnavailableException(refusal('error.storageUnavailable'));
    }
    // Its variants are made now, in the background, not during a publish.
    if (type.kind === 'image') await this.variants.enqueue(url);
    return { url, folder };
  }

  /**
   * Checks an image and removes what it says about where and how it was made (EXIF with the GPS
   * position, XMP, IPTC, comments): for this author a photo's location is a safety risk. The
   * orientation is applied to the pixels and the colour profile kept; a file without such data is
   * kept byte for byte (no needless re-encoding).
   */
  private async cleanImage(input: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
    // Loaded on first use: libvips is large and most API processes never see an upload.
    const { default: sharp } = await import('sharp');
    let meta: Metadata;
    try {
      meta = await sharp(input, { limitInputPixels: false }).metadata();
    } catch {
      throw new UnsupportedMediaTypeException(refusal('error.imageUnreadable'));
    }
    if (!meta.width || !meta.height) throw new UnsupportedMediaTypeException(refusal('error.imageUnreadable'));
    const frameHeight = meta.pageHeight ?? meta.height;
    if (meta.width * frameHeight > MAX_IMAGE_PIXELS) {
      const params = { width: meta.width, height: frameHeight, megapixels: MAX_IMAGE_PIXELS / 1e6 };
      throw new HttpException(refusal('error.imageTooLarge', { params }), HttpStatus.PAYLOAD_TOO_LARGE);
    }
    const revealing = meta.exif || meta.xmp || meta.iptc || meta.tifftagPhotoshop || meta.comments?.length || (meta.orientation ?? 1) > 1;
    if (!revealing) return { data: input, width: meta.width, height: frameHeight };
    try {
      const animated = (meta.pages ?? 1) > 1;
      const pipeline = sharp(input, { limitInputPixels: false, animated }).autoOrient().keepIccProfile();
      const format = meta.format === 'heif' ? 'avif' : meta.format;
      const encoded =
        format === 'jpeg'
          ? pipeline.jpeg({ quality: 92 })
          : format === 'png'
            ? pipeline.png()
            : format === 'webp'
              ? pipeline.webp({ quality: 92 })
              : format === 'gif'
                ? pipeline.gif()
                : pipeline.avif({ quality: 70 });
      const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
      return { data, width: info.width, height: animated ? (info.pageHeight ?? frameHeight) : info.height };
    } catch {
      throw new UnsupportedMediaTypeException(refusal('error.imageUnreadable'));
    }
  }
}
