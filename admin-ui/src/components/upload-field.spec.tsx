import { fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';

import { apiError, mockApi, signIn } from '../test/api-mock';
import { renderWithProviders } from '../test/render';
import { UploadField } from './upload-field';

function Harness({ initial = '', kind }: { initial?: string; kind?: 'image' | 'pdf' }) {
  const [value, setValue] = useState(initial);
  return <UploadField label="Image" contentType="artworks" kind={kind} value={value} onChange={setValue} />;
}

describe('upload field', () => {
  it('previews an image and hides the preview when it fails to load', async () => {
    const api = mockApi();
    signIn(api);
    const { user } = renderWithProviders(<Harness initial="painting.jpg" />);
    const preview = screen.getByRole('img', { name: 'Preview' });
    expect(preview.getAttribute('src')).toBe('/uploads/painting.jpg');
    fireEvent.error(preview);
    expect(screen.queryByRole('img', { name: 'Preview' })).toBeNull();
    await user.clear(screen.getByRole('textbox', { name: 'Image' }));
    await user.type(screen.getByRole('textbox', { name: 'Image' }), 'https://example.com/a.png');
    expect(screen.getByRole('img', { name: 'Preview' }).getAttribute('src')).toBe('https://example.com/a.png');
  });

  it('previews from where the site loads the image, and nothing for one the site drops', () => {
    const api = mockApi();
    signIn(api);
    const preview = (initial: string) => {
      const view = renderWithProviders(<Harness initial={initial} />);
      const src = screen.queryByRole('img', { name: 'Preview' })?.getAttribute('src') ?? null;
      view.unmount();
      return src;
    };
    expect(preview('./cover.jpg')).toBe('/uploads/cover.jpg');
    expect(preview('/objects/a.jpg')).toBe('/objects/a.jpg');
    expect(preview('//cdn.example/x.jpg')).toBeNull();
    expect(preview('data:image/png;base64,iVBORw0KGgo=')).toBeNull();
    expect(preview('javascript:alert(1)')).toBeNull();
  });

  it("generic uploader: 'Upload failed' / 'Please try again or use a URL', and the reason on the field", async () => {
    const api = mockApi({ 'POST /api/upload': apiError(415, 'Only images and PDF files can be uploaded') });
    signIn(api);
    const { user } = renderWithProviders(<Harness />);
    await user.click(screen.getByRole('tab', { name: 'Upload' }));
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    expect(input.accept).toBe('image/*');
    await user.upload(input, new File(['x'], 'x.png', { type: 'image/png' }));
    const toast = await screen.findByRole('alert');
    expect(within(toast).getByText('Upload failed')).toBeTruthy();
    expect(within(toast).getByText('Please try again or use a URL')).toBeTruthy();
    expect(screen.getByText('Only images and PDF files can be uploaded')).toBeTruthy();
  });

  it("PDFs: accept application/pdf, 'PDF uploaded successfully' with 'Saved to plays'", async () => {
    const api = mockApi({ 'POST /api/upload': { url: '/uploads/plays/s-12345678.pdf', folder: 'plays' } });
    signIn(api);
    const { user } = renderWithProviders(<Harness kind="pdf" />);
    await user.click(screen.getByRole('tab', { name: 'Upload' }));
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    expect(input.accept).toBe('application/pdf');
    await user.upload(input, new File(['%PDF'], 's.pdf', { type: 'application/pdf' }));
    expect(await screen.findByText('PDF uploaded successfully')).toBeTruthy();
    expect(screen.getByText('Saved to plays')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open file' }).getAttribute('href')).toBe('/uploads/plays/s-12345678.pdf');
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Image' }));
  });
});
