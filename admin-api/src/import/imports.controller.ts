import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, UploadedFile, UseInterceptors } from '@nestjs/common';
import { BadRequestException } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { ImportJob } from '@portfolio/contract/imports';

import { type AuthContext, CurrentAuth } from '../auth/auth-context.js';
import { refusal } from '../common/api-message.js';
import { IdPipe } from '../common/id.pipe.js';
import type { AssertSame, Serialized } from '../common/json-shape.js';
import { ImportMappingDto } from './dto/import-mapping.dto.js';
import { ImportUploadInterceptor } from './import-upload.interceptor.js';
import { importSchemaRef } from './imports.openapi.js';
import { ImportsService } from './imports.service.js';

const job = { schema: importSchemaRef('ImportJob') };

@ApiTags('imports')
@ApiBearerAuth()
@Controller('imports')
export class ImportsController {
  constructor(private readonly imports: ImportsService) {}

  @Post()
  @UseInterceptors(ImportUploadInterceptor)
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } } })
  @ApiResponse({
    status: 201,
    description: "The export read and planned (a dry run with the default mapping: every post an essay); state 'ready'.",
    ...job,
  })
  @ApiResponse({
    status: 400,
    description:
      'error.importRefused: not an export this site can read, or a damaged or hostile one (one sentence says which); error.importTextTooLarge: one of its text files (XML, JSON, CSV, HTML, Markdown) unpacks to more than IMPORT_TEXT_MAX_MB (params file, mb); nothing was kept.',
  })
  @ApiResponse({ status: 413, description: 'error.importTooLarge: larger than IMPORT_MAX_MB; nothing was kept.' })
  create(@UploadedFile() file: Express.Multer.File | undefined, @CurrentAuth() auth: AuthContext) {
    if (!file) throw new BadRequestException(refusal('validation.chooseFile', { field: 'file' }));
    return this.imports.create({ path: file.path, originalName: file.originalname, from: 'upload' }, auth);
  }

  @Get()
  @ApiOkResponse({ description: 'Every import, newest first.', schema: { type: 'array', items: importSchemaRef('ImportJob') } })
  list() {
    return this.imports.list();
  }

  @Get(':id')
  @ApiOkResponse({ description: "The import, with its progress while it is 'applying'.", ...job })
  get(@Param('id', IdPipe) id: number) {
    return this.imports.get(id);
  }

  @Put(':id/mapping')
  @ApiOkResponse({ description: 'The mapping saved and the report planned again with it.', ...job })
  @ApiResponse({ status: 409, description: 'error.importBusy: the import is being applied or is done.' })
  setMapping(@Param('id', IdPipe) id: number, @Body() mapping: ImportMappingDto) {
    return this.imports.setMapping(id, mapping);
  }

  @Post(':id/apply')
  @HttpCode(202)
  @ApiResponse({
    status: 202,
    description:
      "Applying started ('applying'): each item saved as an edit would be (revisions), then one full publish of the site. GET the import to follow its progress.",
    ...job,
  })
  @ApiResponse({ status: 409, description: 'error.importBusy: the import is being applied or is done.' })
  apply(@Param('id', IdPipe) id: number, @CurrentAuth() auth: AuthContext) {
    return this.imports.apply(id, auth);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiResponse({ status: 204, description: 'The import and its uploaded file are gone; the items it imported stay.' })
  remove(@Param('id', IdPipe) id: number) {
    return this.imports.remove(id);
  }
}

/** The answers are the contract's ImportJob. */
type AnswerIsContract = AssertSame<Serialized<Awaited<ReturnType<ImportsController['get']>>>, ImportJob>;
