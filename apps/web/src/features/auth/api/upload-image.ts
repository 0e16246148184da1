import { api } from '../../../lib/api-client';

/** POST a photo as multipart field `image`; the answer's imageUrl goes into the sign-up payload. */
export async function uploadImage(file: File): Promise<string> {
  const form = new FormData();
  form.append('image', file);
  // No Content-Type: the browser writes multipart/form-data with the form's boundary.
  const { data } = await api.post<{ imageUrl: string }>('/api/auth/upload-image', form);
  return data.imageUrl;
}
