import { kindFeature } from '../kinds/kind-feature.js';
import { Book } from './book.entity.js';
import { BooksController } from './books.controller.js';
import { BooksService } from './books.service.js';
import { CreateBookDto } from './dto/create-book.dto.js';

/** The kind 'books' in the API (registered in src/kind-modules.ts). */
export const BOOKS = kindFeature('books', { entity: Book, createDto: CreateBookDto, service: BooksService, controller: BooksController });
