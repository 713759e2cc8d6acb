import { IsNotEmpty, IsString, MaxLength, MinLength } from 'class-validator';
import { Matches } from '../../common/validators.js';

export class ChangePasswordDto {
  @IsString({ message: 'Current password is required' })
  @IsNotEmpty({ message: 'Current password is required' })
  @MaxLength(200)
  currentPassword: string;

  @IsString({ message: 'New password must be at least 6 characters' })
  @MinLength(6, { message: 'New password must be at least 6 characters' })
  @MaxLength(200, { message: 'New password must be at most 200 characters' })
  newPassword: string;

  @IsString({ message: 'Please confirm your password' })
  @IsNotEmpty({ message: 'Please confirm your password' })
  @Matches('newPassword', { message: "Passwords don't match" })
  confirmPassword: string;
}
