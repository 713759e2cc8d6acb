import type { ContactInput } from '@portfolio/contract/types';
import { Transform } from 'class-transformer';
import { IsDefined, IsEmail, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import type { AssertSame, Serialized } from '../../common/json-shape.js';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class CreateContactDto {
  /** The contact form's own summary line (specification, section 5). */
  static validationMessage = 'Please fill in all fields correctly.';

  @Transform(trim)
  @IsDefined({ message: 'Name is required' })
  @IsString({ message: 'Name is required' })
  @IsNotEmpty({ message: 'Name is required' })
  @MaxLength(200, { message: 'Name must be at most 200 characters' })
  name: string;

  @Transform(trim)
  @IsDefined({ message: 'Email is required' })
  @IsString({ message: 'Email is required' })
  @IsNotEmpty({ message: 'Email is required' })
  @IsEmail({}, { message: 'Please enter a valid email address' })
  @MaxLength(254, { message: 'Please enter a valid email address' })
  email: string;

  @Transform(trim)
  @IsDefined({ message: 'Subject is required' })
  @IsString({ message: 'Subject is required' })
  @IsNotEmpty({ message: 'Subject is required' })
  @MaxLength(300, { message: 'Subject must be at most 300 characters' })
  subject: string;

  @Transform(trim)
  @IsDefined({ message: 'Message is required' })
  @IsString({ message: 'Message is required' })
  @IsNotEmpty({ message: 'Message is required' })
  @MaxLength(10000, { message: 'Message must be at most 10000 characters' })
  message: string;
}

/** The body a client sends is the contract's ContactInput: a field renamed on one side only fails tsc. */
type BodyIsContract = AssertSame<Serialized<CreateContactDto>, ContactInput>;
