import type { TaskFile } from '@task-manager/shared';
import { Download, Paperclip, Trash2 } from 'lucide-react';
import { useRef } from 'react';
import { Button } from '../../../components/ui/button';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { formatNumber } from '../../../lib/format';
import { useT } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { downloadTaskFile, useDeleteFile, useUploadFile } from './timeline-api';

/** 1536 → "1.5 KB": the size a person reads. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${formatNumber(bytes)} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${formatNumber(Math.round(value * 10) / 10)} ${units[unit]}`;
}

/** The largest file the server takes, once a refusal has said it: a larger one is not sent. */
let knownMaxBytes: number | undefined;

/** The limit a 413 `file_too_large` answer gives, if `failure` is one. */
function refusedAsTooLarge(failure: unknown): number | undefined {
  if (!(failure instanceof ApiError) || failure.status !== 413) return undefined;
  const { code, maxBytes } = (failure.data ?? {}) as { code?: unknown; maxBytes?: unknown };
  return code === 'file_too_large' && typeof maxBytes === 'number' ? maxBytes : undefined;
}

/**
 * A task's files: download for everyone who sees the task; upload for admins and assignees;
 * delete for the uploader and admins.
 */
export function TaskFiles({
  taskId,
  files,
  canUpload,
}: {
  taskId: string;
  files: readonly TaskFile[];
  canUpload: boolean;
}) {
  const t = useT();
  const { user } = useSession();
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadFile(taskId);
  const remove = useDeleteFile(taskId);

  function send(file: File | undefined) {
    if (!file) return;
    const tooLarge = (maxBytes: number) =>
      notify('error', t('files.tooLarge', { name: file.name, size: formatSize(maxBytes) }));
    if (knownMaxBytes !== undefined && file.size > knownMaxBytes) return tooLarge(knownMaxBytes);
    upload.mutate(file, {
      onSuccess: () => notify('success', t('files.uploaded', { name: file.name })),
      onError: (failure) => {
        const maxBytes = refusedAsTooLarge(failure);
        if (maxBytes === undefined)
          return notify('error', errorMessage(failure, t('files.uploadFailed')));
        knownMaxBytes = maxBytes;
        tooLarge(maxBytes);
      },
    });
  }

  return (
    <section aria-labelledby="files-heading" className="flex flex-col gap-3">
      <h2 id="files-heading" className="text-sm font-medium text-slate-700">
        {t('files.heading')}
      </h2>
      {files.length === 0 ? (
        <p className="text-sm text-slate-600">{t('files.none')}</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {files.map((file) => (
            <li
              key={file._id}
              className="flex items-center gap-3 rounded-md border border-slate-200 px-3 py-2 text-sm"
            >
              <Paperclip size={16} aria-hidden className="shrink-0 text-slate-600" />
              <span className="min-w-0 flex-1 truncate text-slate-900">{file.name}</span>
              <span className="shrink-0 text-slate-600">{formatSize(file.size)}</span>
              <Button
                variant="ghost"
                className="px-2 py-1"
                aria-label={t('files.download', { name: file.name })}
                onClick={() =>
                  void downloadTaskFile(file).catch((failure: unknown) =>
                    notify('error', errorMessage(failure, t('files.downloadFailed'))),
                  )
                }
              >
                <Download size={16} aria-hidden />
              </Button>
              {(user?.role === 'admin' || file.uploadedBy === user?._id) && (
                <Button
                  variant="ghost"
                  className="px-2 py-1"
                  aria-label={t('files.delete', { name: file.name })}
                  disabled={remove.isPending}
                  onClick={() => {
                    if (!window.confirm(t('files.confirmDelete', { name: file.name }))) return;
                    remove.mutate(file._id, {
                      onError: (failure) =>
                        notify('error', errorMessage(failure, t('files.deleteFailed'))),
                    });
                  }}
                >
                  <Trash2 size={16} aria-hidden />
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {canUpload && (
        <div>
          <input
            ref={input}
            type="file"
            className="sr-only"
            tabIndex={-1}
            aria-label={t('files.choose')}
            onChange={(event) => {
              send(event.target.files?.[0]);
              event.target.value = '';
            }}
          />
          <Button
            variant="secondary"
            disabled={upload.isPending}
            onClick={() => input.current?.click()}
          >
            <Paperclip size={16} aria-hidden />
            {upload.isPending ? t('files.uploading') : t('files.attach')}
          </Button>
        </div>
      )}
    </section>
  );
}
