import { Bool, OptionalText, RequiredInt, RequiredText } from '../../common/validators.js';

export class CreateArtworkDto {
  @RequiredText(300, 'Title is required')
  title: string;

  @RequiredText(200, 'Medium is required')
  medium: string;

  @RequiredInt(1, 9999, 'Year')
  year: number;

  @RequiredText(2000, 'Image is required')
  image: string;

  @OptionalText(20000)
  description?: string | null;

  @Bool({ optional: true })
  featured?: boolean;
}
