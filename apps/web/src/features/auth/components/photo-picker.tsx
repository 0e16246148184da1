import { Trash2, Upload, User } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { useT } from '../../../lib/i18n';

/** The round profile-photo picker of sign-up: image files only, with a remove button. */
export function PhotoPicker({
  file,
  onChange,
  onReject,
}: {
  file: File | null;
  onChange: (file: File | null) => void;
  onReject: (message: string) => void;
}) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const shown = file ? preview : null;
  const t = useT();

  // One object URL per chosen file, freed when the photo is replaced or removed.
  function select(chosen: File | null) {
    if (preview) URL.revokeObjectURL(preview);
    setPreview(chosen ? URL.createObjectURL(chosen) : null);
    onChange(chosen);
  }

  function choose(chosen: File | undefined) {
    if (!chosen) return;
    if (!chosen.type.startsWith('image/')) {
      onReject(t('profile.chooseImage'));
      return;
    }
    select(chosen);
  }

  return (
    <div className="flex justify-center">
      <input
        ref={input}
        id={inputId}
        type="file"
        accept="image/*"
        className="sr-only"
        aria-label={t('profile.photo')}
        onChange={(event) => {
          choose(event.target.files?.[0]);
          event.target.value = '';
        }}
      />
      <div className="relative">
        {shown ? (
          <img
            src={shown}
            alt={t('auth.chosenPhoto')}
            className="h-20 w-20 rounded-full object-cover"
          />
        ) : (
          <div className="flex h-20 w-20 items-center justify-center rounded-full bg-blue-100 text-blue-700">
            <User size={36} aria-hidden />
          </div>
        )}
        {file ? (
          <button
            type="button"
            onClick={() => select(null)}
            aria-label={t('profile.removePhoto')}
            className="absolute -right-1 -bottom-1 flex h-8 w-8 items-center justify-center rounded-full bg-red-700 text-white"
          >
            <Trash2 size={16} aria-hidden />
          </button>
        ) : (
          <button
            type="button"
            onClick={() => input.current?.click()}
            aria-label={t('auth.uploadProfilePhoto')}
            className="absolute -right-1 -bottom-1 flex h-8 w-8 items-center justify-center rounded-full bg-blue-700 text-white"
          >
            <Upload size={16} aria-hidden />
          </button>
        )}
      </div>
    </div>
  );
}
