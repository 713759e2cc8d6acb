import { Body, Controller, Post, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiResponse, ApiTags } from '@nestjs/swagger';
import { UPLOAD_FOLDERS, type UploadResponse } from '@portfolio/contract/types';

import type { AssertSame, Serialized } from '../common/json-shape.js';
import { UploadDto } from './upload.dto.js';
import { UploadsService } from './uploads.service.js';

@ApiTags('uploads')
@ApiBearerAuth()
@Controller('upload')
export class UploadsController {
  constructor(private readonly uploads: UploadsService) {}

  @Post()
  @UseInterceptors(FileInterceptor('file'))
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['file'],
      properties: {
        file: { type: 'string', format: 'binary' },
        contentType: { type: 'string', enum: [...UPLOAD_FOLDERS] },
      },
    },
  })
  @ApiResponse({
    status: 503,
    description:
      "error.storageUnavailable: the uploads' storage (the S3-compatible bucket of STORAGE_URL, or the disk) could not store the file; nothing was kept. The file is served at its `url` (/uploads/<folder>/<name>) whichever storage holds it.",
  })
  upload(@UploadedFile() file: Express.Multer.File | undefined, @Body() dto: UploadDto) {
    return this.uploads.store(file, dto.contentType);
  }
}

/** The answer of upload() is the contract's UploadResponse. */
type AnswerIsContract = AssertSame<Serialized<Awaited<ReturnType<UploadsController['upload']>>>, UploadResponse>;
