import { api } from '../../../lib/api-client';

/** POST a photo as multipart field `image`; the answer's imageUrl goes into the sign-up payload. */
export async function uploadImage(file: File): Promise<string> {
  const form = new FormData();
  form.append('image', file);
  const { data } = await api.post<{ imageUrl: string }>('/api/auth/upload-image', form, {
    headers: { 'Content-Type': 'multipart/form-data' },
  });
  return data.imageUrl;
}
