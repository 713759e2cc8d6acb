import { PASSWORD_MIN_LENGTH } from './rules.js';

/**
 * Every message the API sends and the overlay shows for validation and errors, by key, in English
 * and Arabic. The API answers with the English text (the specification's sentences, unchanged) and
 * the key; the overlay shows the text of the key in its language, so a sentence can be reworded in
 * either language without losing the other.
 *
 * Parameters are written `{name}`. A parameter is a number or a string inserted as it is (limits,
 * a list of accepted values), or a MessageRef, which is translated into the same language: field
 * labels are passed that way (`{field}` ← `{ key: 'label.year' }`), so 'Year must be a whole number'
 * reads 'يجب أن تكون قيمة السنة عددًا صحيحًا'. A sentence about one named field that the
 * specification writes out ('Title is required') stays a key of its own: Arabic words agree with
 * their noun, so whole sentences translate better than templates; templates are for the API's
 * generic validators, and their Arabic is phrased to agree with any label ('قيمة {field}').
 *
 * Latin fragments in the Arabic (http://, /, ISO 8601, variable names) sit between the direction
 * isolates U+2066 … U+2069, or 'http://' shows as '//:http' in right-to-left text.
 */
export const MESSAGES = {
  // Field problems (the `errors` of an answer, and the overlay's own checks before sending).
  'validation.required': { en: 'Required', ar: 'مطلوب' },
  'validation.usernameRequired': { en: 'Username is required', ar: 'اسم المستخدم مطلوب' },
  'validation.passwordRequired': { en: 'Password is required', ar: 'كلمة المرور مطلوبة' },
  'validation.emailRequired': { en: 'Email is required', ar: 'البريد الإلكتروني مطلوب' },
  'validation.nameRequired': { en: 'Name is required', ar: 'الاسم مطلوب' },
  'validation.subjectRequired': { en: 'Subject is required', ar: 'الموضوع مطلوب' },
  'validation.messageRequired': { en: 'Message is required', ar: 'الرسالة مطلوبة' },
  'validation.emailInvalid': { en: 'Please enter a valid email address', ar: 'يرجى إدخال بريد إلكتروني صالح' },
  'validation.tokenRequired': { en: 'Reset token is required', ar: 'رمز إعادة التعيين مطلوب' },
  'validation.passwordMin': {
    en: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
    ar: `يجب أن تتكون كلمة المرور من ${PASSWORD_MIN_LENGTH} أحرف على الأقل`,
  },
  'validation.newPasswordMin': {
    en: `New password must be at least ${PASSWORD_MIN_LENGTH} characters`,
    ar: `يجب أن تتكون كلمة المرور الجديدة من ${PASSWORD_MIN_LENGTH} أحرف على الأقل`,
  },
  'validation.currentRequired': { en: 'Current password is required', ar: 'كلمة المرور الحالية مطلوبة' },
  'validation.currentIncorrect': { en: 'Current password is incorrect', ar: 'كلمة المرور الحالية غير صحيحة' },
  'validation.confirmRequired': { en: 'Please confirm your password', ar: 'يرجى تأكيد كلمة المرور' },
  'validation.mismatch': { en: "Passwords don't match", ar: 'كلمتا المرور غير متطابقتين' },
  'validation.usernameFormat': {
    en: 'Username must be 3 to 50 letters, digits, dots, dashes or underscores',
    ar: 'يجب أن يتكون اسم المستخدم من 3 إلى 50 حرفًا لاتينيًا أو رقمًا أو نقطة أو شرطة',
  },
  'validation.usernameTaken': { en: 'This username is already taken', ar: 'اسم المستخدم هذا مستخدم بالفعل' },
  'validation.emailTaken': { en: 'This email address is already in use', ar: 'عنوان البريد الإلكتروني هذا مستخدم بالفعل' },
  'validation.titleRequired': { en: 'Title is required', ar: 'العنوان مطلوب' },
  'validation.descriptionRequired': { en: 'Description is required', ar: 'الوصف مطلوب' },
  'validation.publisherRequired': { en: 'Publisher is required', ar: 'الناشر مطلوب' },
  'validation.excerptRequired': { en: 'Excerpt is required', ar: 'المقتطف مطلوب' },
  'validation.contentRequired': { en: 'Content is required', ar: 'المحتوى مطلوب' },
  'validation.mediumRequired': { en: 'Medium is required', ar: 'الوسيط الفني مطلوب' },
  'validation.imageRequired': { en: 'Image is required', ar: 'الصورة مطلوبة' },
  'validation.yearRequired': { en: 'Year is required', ar: 'السنة مطلوبة' },
  'validation.wholeNumber': { en: '{field} must be a whole number', ar: 'يجب أن تكون قيمة {field} عددًا صحيحًا' },
  'validation.atLeast': { en: '{field} must be at least {min}', ar: 'يجب ألا تقل قيمة {field} عن {min}' },
  'validation.atMost': { en: '{field} must be at most {max}', ar: 'يجب ألا تزيد قيمة {field} على {max}' },
  'validation.maxLength': { en: 'Must be at most {max} characters', ar: 'يجب ألا يزيد عدد الأحرف على {max}' },
  'validation.fieldMaxLength': { en: '{field} must be at most {max} characters', ar: 'يجب ألا يزيد عدد أحرف {field} على {max}' },
  'validation.text': { en: 'Must be text', ar: 'يجب أن تكون القيمة نصًا' },
  'validation.boolean': { en: 'Must be true or false', ar: 'يجب أن تكون القيمة \u2066true\u2069 أو \u2066false\u2069' },
  'validation.oneOf': { en: 'Must be one of: {values}', ar: 'يجب أن تكون القيمة إحدى القيم التالية: \u2066{values}\u2069' },
  'validation.isoDate': {
    en: 'Must be a date in ISO 8601 format, e.g. 2025-03-01 or 2025-03-01T10:00:00Z',
    ar: 'يجب أن يكون تاريخًا بصيغة \u2066ISO 8601\u2069، مثل \u20662025-03-01\u2069 أو \u20662025-03-01T10:00:00Z\u2069',
  },
  'validation.textList': { en: 'Must be a list of texts', ar: 'يجب أن تكون القيمة قائمة نصوص' },
  'validation.maxEntries': { en: 'Must have at most {max} entries', ar: 'يجب ألا يزيد عدد العناصر على {max}' },
  'validation.entryText': { en: 'Each entry must be text', ar: 'يجب أن يكون كل عنصر نصًا' },
  'validation.entryMaxLength': { en: 'Each entry must be at most {max} characters', ar: 'يجب ألا يزيد عدد أحرف كل عنصر على {max}' },
  'validation.unknownField': { en: 'Unknown field', ar: 'حقل غير معروف' },
  'validation.translation': {
    en: 'Must be an object of translated fields (null or {} for none)',
    ar: 'يجب أن تكون القيمة كائنًا من الحقول المترجمة (\u2066null\u2069 أو \u2066{}\u2069 إن لم توجد)',
  },
  'validation.deletedAlone': {
    en: 'isDeleted must be sent alone, without other fields',
    ar: 'يجب إرسال \u2066isDeleted\u2069 وحده، دون حقول أخرى',
  },
  'validation.link': {
    en: 'Must be a link starting with http:// or https://',
    ar: 'يجب أن يكون رابطًا يبدأ بـ \u2066http://\u2069 أو \u2066https://\u2069',
  },
  'validation.imagePath': {
    en: 'The site cannot show this image. Use a link starting with http:// or https://, a path starting with /, or a file name.',
    ar: 'لا يستطيع الموقع عرض هذه الصورة. استخدم رابطًا يبدأ بـ \u2066http://\u2069 أو \u2066https://\u2069، أو مسارًا يبدأ بـ \u2066/\u2069، أو اسم ملف.',
  },
  'validation.filePath': {
    en: 'The site cannot link this file. Use a link starting with http:// or https://, a path starting with /, or a file name.',
    ar: 'لا يستطيع الموقع ربط هذا الملف. استخدم رابطًا يبدأ بـ \u2066http://\u2069 أو \u2066https://\u2069، أو مسارًا يبدأ بـ \u2066/\u2069، أو اسم ملف.',
  },
  'validation.reviewLink': {
    en: 'Review link must start with http:// or https://',
    ar: 'يجب أن يبدأ رابط المراجعة بـ \u2066http://\u2069 أو \u2066https://\u2069',
  },
  'validation.reviewLinkRequired': { en: 'Review link is required', ar: 'رابط المراجعة مطلوب' },
  'validation.chooseFile': { en: 'Choose a file to upload', ar: 'اختر ملفًا لرفعه' },
  'validation.failed': { en: 'Validation failed', ar: 'فشل التحقق من صحة البيانات' },
  'validation.invalidBody': { en: 'Invalid request body', ar: 'محتوى الطلب غير صالح' },
  'validation.codeRequired': {
    en: 'Enter the 6-digit code from your authenticator app',
    ar: 'أدخل الرمز المكوّن من 6 أرقام من تطبيق المصادقة',
  },
  'validation.codeOrPasswordRequired': {
    en: 'Enter a current code from your authenticator app, or your password',
    ar: 'أدخل رمزًا حاليًا من تطبيق المصادقة، أو كلمة المرور',
  },
  'validation.fillAllFields': { en: 'Please fill in all fields correctly.', ar: 'يرجى ملء جميع الحقول بشكل صحيح.' },
  // Site settings (PATCH /api/admin/settings).
  'validation.authorNameRequired': { en: 'Author name is required', ar: 'اسم الكاتبة مطلوب' },
  'validation.biographyRequired': { en: 'Biography is required', ar: 'السيرة مطلوبة' },
  'validation.siteUrlRequired': { en: 'Site address is required', ar: 'عنوان الموقع مطلوب' },
  'validation.linkRequired': { en: 'Link is required', ar: 'الرابط مطلوب' },
  'validation.linkNameRequired': { en: 'Link name is required', ar: 'اسم الرابط مطلوب' },
  'validation.linkList': {
    en: 'Must be a list of links, each with a name and a URL',
    ar: 'يجب أن تكون القيمة قائمة روابط، لكلٍّ منها اسم وعنوان',
  },

  // Field labels, for the templates above.
  'label.year': { en: 'Year', ar: 'السنة' },
  'label.pages': { en: 'Pages', ar: 'عدد الصفحات' },
  'label.downloadCount': { en: 'Download count', ar: 'عدد التنزيلات' },
  'label.name': { en: 'Name', ar: 'الاسم' },
  'label.subject': { en: 'Subject', ar: 'الموضوع' },
  'label.message': { en: 'Message', ar: 'الرسالة' },
  'label.password': { en: 'Password', ar: 'كلمة المرور' },
  'label.newPassword': { en: 'New password', ar: 'كلمة المرور الجديدة' },
  'label.limit': { en: 'Limit', ar: 'الحد الأقصى للنتائج' },
  'label.offset': { en: 'Offset', ar: 'موضع البداية' },
  'label.copyrightYear': { en: 'Copyright year', ar: 'سنة حقوق النشر' },

  // Refusals of a whole request (an answer's `message`).
  'error.invalidCredentials': { en: 'Invalid username or password', ar: 'اسم المستخدم أو كلمة المرور غير صحيحة' },
  'error.authenticationRequired': {
    en: 'Authentication required. Please sign in again.',
    ar: 'يلزم تسجيل الدخول. يرجى تسجيل الدخول مرة أخرى.',
  },
  'error.tooManyAttempts': {
    en: 'Too many attempts. Please try again in {minutes} minutes.',
    // Counted nouns agree with the number in Arabic (دقيقتان، 3 دقائق، 11 دقيقة): the count stands apart.
    ar: 'محاولات كثيرة جدًا. يرجى الانتظار ثم المحاولة مرة أخرى؛ المدة المتبقية بالدقائق: {minutes}.',
  },
  'error.tooManyAttemptsOneMinute': {
    en: 'Too many attempts. Please try again in 1 minute.',
    ar: 'محاولات كثيرة جدًا. يرجى المحاولة مرة أخرى بعد دقيقة واحدة.',
  },
  'error.resetLinkInvalid': {
    en: 'This reset link is invalid or has expired. Please ask for a new one.',
    ar: 'رابط إعادة التعيين غير صالح أو منتهي الصلاحية. يرجى طلب رابط جديد.',
  },
  'error.twoFactorRequired': {
    en: 'Enter the code from your authenticator app to finish signing in.',
    ar: 'أدخل الرمز من تطبيق المصادقة لإكمال تسجيل الدخول.',
  },
  'error.twoFactorChallengeInvalid': {
    en: 'This sign-in has expired. Please enter your username and password again.',
    ar: 'انتهت مهلة تسجيل الدخول هذا. يرجى إدخال اسم المستخدم وكلمة المرور مرة أخرى.',
  },
  'error.twoFactorCodeInvalid': {
    en: 'This code is not correct. Check your authenticator app and try again.',
    ar: 'هذا الرمز غير صحيح. تحقق من تطبيق المصادقة وحاول مرة أخرى.',
  },
  'error.twoFactorCodeExpired': {
    en: 'This code has expired. Enter the code your authenticator app shows now.',
    ar: 'انتهت صلاحية هذا الرمز. أدخل الرمز الذي يعرضه تطبيق المصادقة الآن.',
  },
  'error.twoFactorCodeUsed': {
    en: 'This code has already been used. Wait for the next code in your authenticator app.',
    ar: 'استُخدم هذا الرمز من قبل. انتظر الرمز التالي في تطبيق المصادقة.',
  },
  'error.recoveryCodeInvalid': {
    en: 'This recovery code is not valid or has already been used.',
    ar: 'رمز الاسترداد هذا غير صالح أو استُخدم من قبل.',
  },
  'error.twoFactorUnavailable': {
    en: 'Codes cannot be checked because the server’s two-factor key changed. Use a recovery code, or ask another admin to turn two-factor sign-in off for you.',
    ar: 'تعذر التحقق من الرموز لأن مفتاح التحقق بخطوتين على الخادم قد تغيّر. استخدم رمز استرداد، أو اطلب من مشرف آخر إيقاف التحقق بخطوتين لحسابك.',
  },
  'error.twoFactorAlreadyOn': {
    en: 'Two-factor sign-in is already on. Turn it off first to set it up again.',
    ar: 'التحقق بخطوتين مفعّل بالفعل. أوقفه أولًا لإعداده من جديد.',
  },
  'error.twoFactorNotStarted': {
    en: 'No two-factor setup is waiting for a code. Start the setup again.',
    ar: 'لا يوجد إعداد للتحقق بخطوتين بانتظار رمز. ابدأ الإعداد من جديد.',
  },
  'error.twoFactorOff': { en: 'Two-factor sign-in is not on for this account.', ar: 'التحقق بخطوتين غير مفعّل لهذا الحساب.' },
  'error.twoFactorResetSelf': {
    en: 'Turn your own two-factor sign-in off from the Two-factor sign-in screen.',
    ar: 'أوقف التحقق بخطوتين لحسابك من شاشة التحقق بخطوتين.',
  },
  'error.superadminDeactivation': { en: 'The main administrator cannot be deactivated', ar: 'لا يمكن إيقاف حساب المشرف الرئيسي' },
  'error.superadminTwoFactor': {
    en: "The main administrator's two-factor sign-in can only be turned off with a recovery code, or by the operator (npm run two-factor:off)",
    ar: 'لا يُوقف التحقق بخطوتين للمشرف الرئيسي إلا برمز استرداد، أو من مشغّل الخادم (npm run two-factor:off)',
  },
  'error.selfDeactivation': { en: 'You cannot deactivate your own account', ar: 'لا يمكنك إيقاف حسابك أنت' },
  'error.notFound': { en: 'Not found', ar: 'غير موجود' },
  'error.bookNotFound': { en: 'Book Not Found', ar: 'الكتاب غير موجود' },
  'error.essayNotFound': { en: 'Essay not found', ar: 'المقال غير موجود' },
  'error.artworkNotFound': { en: 'Artwork not found', ar: 'العمل الفني غير موجود' },
  'error.newsNotFound': { en: 'News item not found', ar: 'الخبر غير موجود' },
  'error.playNotFound': { en: 'Play not found', ar: 'المسرحية غير موجودة' },
  'error.contactNotFound': { en: 'Contact not found', ar: 'الرسالة غير موجودة' },
  'error.userNotFound': { en: 'User not found', ar: 'المستخدم غير موجود' },
  'error.revisionNotFound': { en: 'Revision not found', ar: 'النسخة غير موجودة' },
  'error.deletedBookNotEditable': {
    en: 'Deleted books cannot be edited. Restore the book first.',
    ar: 'لا يمكن تعديل الكتب المحذوفة. استعد الكتاب أولًا.',
  },
  'error.fileTooLarge': { en: 'This file is too large. The limit is {mb} MB.', ar: 'هذا الملف كبير جدًا. الحد الأقصى {mb} ميغابايت.' },
  'error.fileType': {
    en: 'Only images (JPEG, PNG, GIF, WebP, AVIF) and PDF files can be uploaded',
    ar: 'لا يمكن رفع إلا الصور (\u2066JPEG, PNG, GIF, WebP, AVIF\u2069) وملفات \u2066PDF\u2069',
  },
  'error.imageUnreadable': { en: 'This image file is damaged or could not be read', ar: 'ملف الصورة هذا تالف أو تعذرت قراءته' },
  'error.imageTooLarge': {
    en: 'This image is too large ({width} × {height}); at most {megapixels} megapixels are accepted',
    ar: 'هذه الصورة كبيرة جدًا (\u2066{width} × {height}\u2069)؛ الحد الأقصى المقبول {megapixels} ميغابكسل',
  },
  'error.malformedJson': { en: 'Malformed JSON body', ar: 'محتوى الطلب ليس \u2066JSON\u2069 سليمًا' },
  'error.bodyTooLarge': { en: 'Request body is too large', ar: 'محتوى الطلب كبير جدًا' },
  'error.bodyTooDeep': { en: 'The request body is nested too deeply', ar: 'محتوى الطلب متداخل بعمق زائد' },
  'error.bodyUnreadable': { en: 'The request body could not be read', ar: 'تعذرت قراءة محتوى الطلب' },
  'error.duplicate': { en: 'This record already exists', ar: 'هذا السجل موجود بالفعل' },
  'error.publishingNotConfigured': {
    en: 'Publishing is not set up: REBUILD_WEBHOOK_URL and REBUILD_WEBHOOK_SECRET are not configured.',
    ar: 'النشر غير مُعدّ: لم يُضبط \u2066REBUILD_WEBHOOK_URL\u2069 و\u2066REBUILD_WEBHOOK_SECRET\u2069.',
  },
  'error.previewUnavailable': {
    en: 'Preview is not available here: it needs the site builder of this installation (npm start or docker compose), which a hosted build hook or BUILD_COMMAND does not have.',
    ar: 'المعاينة غير متاحة هنا: تحتاج إلى بانيَ الموقع الخاص بهذا التثبيت (\u2066npm start\u2069 أو \u2066docker compose\u2069)، ولا يتوفر مع خطّاف بناء مستضاف أو \u2066BUILD_COMMAND\u2069.',
  },
  'error.previewFailed': {
    en: 'The preview could not be made: {reason}',
    ar: 'تعذّر إعداد المعاينة: {reason}',
  },
  'error.siteNotBuilt': {
    en: 'The site has not been built yet, so there is nothing to download. Try again when the first publish is live.',
    ar: 'لم يُبنَ الموقع بعد، فلا يوجد ما يمكن تنزيله. حاول مرة أخرى بعد أن يصبح أول نشر متاحًا.',
  },
  'error.siteExportFailed': {
    en: 'The copy of the site could not be made. Please try again.',
    ar: 'تعذر إعداد نسخة من الموقع. يرجى المحاولة مرة أخرى.',
  },
  'error.databaseUnavailable': {
    en: 'The database is unavailable right now. Please try again in a moment.',
    ar: 'قاعدة البيانات غير متاحة حاليًا. يرجى المحاولة مرة أخرى بعد قليل.',
  },
  'error.storageUnavailable': {
    en: 'The file could not be stored right now. Please try again in a moment.',
    ar: 'تعذر حفظ الملف حاليًا. يرجى المحاولة مرة أخرى بعد قليل.',
  },
  'error.migrationsPending': {
    en: 'The database schema is not up to date yet (migrations are pending).',
    ar: 'مخطط قاعدة البيانات ليس محدّثًا بعد (توجد ترحيلات لم تُطبَّق).',
  },
  'error.shuttingDown': {
    en: 'This server is shutting down; another one will answer.',
    ar: 'هذا الخادم يتوقف عن العمل؛ سيجيب خادم آخر.',
  },
  'error.server': {
    en: 'Something went wrong on the server. Please try again.',
    ar: 'حدث خطأ في الخادم. يرجى المحاولة مرة أخرى.',
  },

  // Answers that report success (`{ message }` bodies).
  'notice.passwordChanged': { en: 'Password changed successfully', ar: 'تم تغيير كلمة المرور بنجاح' },
  'notice.resetLinkSent': {
    en: 'If this address belongs to an admin, a reset link has been sent to it.',
    ar: 'إذا كان هذا العنوان لمشرف، فقد أُرسل إليه رابط إعادة التعيين.',
  },
  'notice.passwordReset': {
    en: 'Your password has been reset. You can sign in now.',
    ar: 'تمت إعادة تعيين كلمة المرور. يمكنك تسجيل الدخول الآن.',
  },
  'notice.twoFactorDisabled': { en: 'Two-factor sign-in is off.', ar: 'تم إيقاف التحقق بخطوتين.' },
  'notice.messageReceived': { en: 'Message received', ar: 'تم استلام الرسالة' },
} as const satisfies Record<string, { en: string; ar: string }>;

export type MessageKey = keyof typeof MESSAGES;
export type MessageLanguage = 'en' | 'ar';
export type MessageParam = string | number | MessageRef;
export type MessageParams = Record<string, MessageParam>;

/** A message by key, with its parameters: what the API sends besides the English text. */
export interface MessageRef {
  key: MessageKey;
  params?: MessageParams;
}

export function isMessageKey(value: unknown): value is MessageKey {
  return typeof value === 'string' && Object.hasOwn(MESSAGES, value);
}

/**
 * Whether a value (e.g. from an answer's `errorKeys`) is a MessageRef this catalogue can show:
 * a known key and parameters that are numbers, strings or such refs. An API newer than the
 * overlay may send keys it does not know; the overlay then shows the English text as sent.
 */
export function isMessageRef(value: unknown): value is MessageRef {
  if (!value || typeof value !== 'object') return false;
  const { key, params } = value as { key?: unknown; params?: unknown };
  if (!isMessageKey(key)) return false;
  if (params === undefined) return true;
  if (!params || typeof params !== 'object' || Array.isArray(params)) return false;
  return Object.values(params).every((p) => typeof p === 'string' || typeof p === 'number' || isMessageRef(p));
}

/** The text of a message in a language; `params` (if given) are merged over the ref's own. */
export function messageText(message: MessageRef | MessageKey, lang: MessageLanguage, params?: MessageParams): string {
  const ref = typeof message === 'string' ? { key: message } : message;
  const all = { ...ref.params, ...params };
  return MESSAGES[ref.key][lang].replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = all[name];
    if (value === undefined) return whole;
    return typeof value === 'object' ? messageText(value, lang) : String(value);
  });
}

/** The placeholders a text uses, e.g. `['field', 'max']`. */
export function messagePlaceholders(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
}
