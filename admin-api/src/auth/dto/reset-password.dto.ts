import { IsNotEmpty, IsString, MaxLength, MinLength } from 'class-validator';
import { Matches } from '../../common/validators.js';

export class ResetPasswordDto {
  @IsString({ message: 'Reset token is required' })
  @IsNotEmpty({ message: 'Reset token is required' })
  @MaxLength(200)
  token: string;

  @IsString({ message: 'Password must be at least 6 characters' })
  @MinLength(6, { message: 'Password must be at least 6 characters' })
  @MaxLength(200, { message: 'Password must be at most 200 characters' })
  password: string;

  @IsString({ message: 'Please confirm your password' })
  @IsNotEmpty({ message: 'Please confirm your password' })
  @Matches('password', { message: "Passwords don't match" })
  confirmPassword: string;
}
