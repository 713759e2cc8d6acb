import { Injectable, NotFoundException, PipeTransform } from '@nestjs/common';

import { refusal } from './api-message.js';

/** Route ids are positive 32-bit integers; anything else names no resource, so 404. */
@Injectable()
export class IdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    if (!/^[1-9]\d{0,9}$/.test(value) || Number(value) > 2_147_483_647) throw new NotFoundException(refusal('error.notFound'));
    return Number(value);
  }
}
