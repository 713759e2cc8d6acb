import { randomBytes } from 'node:crypto';
import { BadRequestException, HttpStatus, Injectable, UnsupportedMediaTypeException, HttpException } from '@nestjs/common';
import type { Metadata } from 'sharp';
import { FileStorage } from './file-storage.js';
import { sniffFileType } from './sniff.js';
import type { UploadFolder } from './upload.dto.js';

/** Larger images are refused: decoding them would cost the server too much memory. */
export const MAX_IMAGE_PIXELS = 50_000_000;

@Injectable()
export class UploadsService {
  constructor(private readonly storage: FileStorage) {}

  async store(file: Express.Multer.File | undefined, folder: UploadFolder = 'general') {
    if (!file?.buffer?.length) {
      throw new BadRequestException({ statusCode: 400, message: 'Choose a file to upload', errors: { file: 'Choose a file to upload' } });
    }
    const type = sniffFileType(file.buffer);
    if (!type) {
      throw new UnsupportedMediaTypeException(
        'Only images (JPEG, PNG, GIF, WebP, AVIF) and PDF files can be uploaded',
      );
    }
    if (type.kind === 'image') await this.checkImage(file.buffer);
    const name = `${Date.now().toString(36)}-${randomBytes(8).toString('hex')}.${type.ext}`;
    const url = await this.storage.save(folder, name, file.buffer);
    return { url, folder };
  }

  private async checkImage(data: Buffer) {
    let meta: Metadata;
    try {
      // Loaded on first use: libvips is large and most API processes never see an upload.
      const { default: sharp } = await import('sharp');
      meta = await sharp(data, { limitInputPixels: false }).metadata();
    } catch {
      throw new UnsupportedMediaTypeException('This image file is damaged or could not be read');
    }
    if (!meta.width || !meta.height) throw new UnsupportedMediaTypeException('This image file is damaged or could not be read');
    if (meta.width * meta.height > MAX_IMAGE_PIXELS) {
      throw new HttpException(
        `This image is too large (${meta.width} × ${meta.height}); at most ${MAX_IMAGE_PIXELS / 1e6} megapixels are accepted`,
        HttpStatus.PAYLOAD_TOO_LARGE,
      );
    }
  }
}
