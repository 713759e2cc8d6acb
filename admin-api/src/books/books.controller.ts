import { HttpCode, Param, Post } from '@nestjs/common';

import { Public } from '../auth/auth-context.js';
import { IdPipe } from '../common/id.pipe.js';
import { ContentController } from '../content/content.controller.js';
import { BooksService } from './books.service.js';
import { CreateBookDto } from './dto/create-book.dto.js';

/** The routes of every kind, and a book's download counter. */
export class BooksController extends ContentController('books', BooksService, CreateBookDto) {
  @Public()
  @Post(':id/download')
  @HttpCode(200)
  download(@Param('id', IdPipe) id: number) {
    return this.service.countDownload(id);
  }
}
