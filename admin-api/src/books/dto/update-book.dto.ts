import { UpdateDto } from '../../common/update-dto.js';
import { CreateBookDto } from './create-book.dto.js';

export class UpdateBookDto extends UpdateDto(CreateBookDto) {}
