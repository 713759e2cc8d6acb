import { Transform } from 'class-transformer';
import { IsEmail, IsNotEmpty, IsString, Matches, MaxLength, MinLength } from 'class-validator';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class CreateAdminUserDto {
  @Transform(trim)
  @IsString({ message: 'Username is required' })
  @IsNotEmpty({ message: 'Username is required' })
  @Matches(/^[A-Za-z0-9._-]{3,50}$/, { message: 'Username must be 3 to 50 letters, digits, dots, dashes or underscores' })
  username: string;

  @Transform(trim)
  @IsString({ message: 'Email is required' })
  @IsNotEmpty({ message: 'Email is required' })
  @IsEmail({}, { message: 'Please enter a valid email address' })
  @MaxLength(191, { message: 'Please enter a valid email address' })
  email: string;

  @Transform(trim)
  @IsString({ message: 'Name is required' })
  @IsNotEmpty({ message: 'Name is required' })
  @MaxLength(200, { message: 'Name must be at most 200 characters' })
  name: string;

  @IsString({ message: 'Password must be at least 6 characters' })
  @MinLength(6, { message: 'Password must be at least 6 characters' })
  @MaxLength(200, { message: 'Password must be at most 200 characters' })
  password: string;
}
