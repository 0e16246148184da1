import { ExternalLink, Paperclip } from 'lucide-react';
import { toHref } from '../../../lib/format';
import { useT } from '../../../lib/i18n';

/**
 * The attachments of a task as links that open in a new tab. A link typed without a scheme gets
 * https://; the text is shown as typed (as text, never as HTML).
 */
export function TaskAttachments({ links }: { links: readonly string[] }) {
  const t = useT();
  if (links.length === 0) {
    return <p className="text-sm text-slate-600">{t('tasks.noAttachments')}</p>;
  }
  return (
    <ul className="flex flex-col gap-2">
      {links.map((link, index) => (
        <li key={`${index}-${link}`}>
          <a
            href={toHref(link)}
            target="_blank"
            rel="noopener noreferrer"
            className="flex items-center gap-3 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-900 hover:bg-slate-100"
          >
            <Paperclip size={16} aria-hidden className="shrink-0 text-slate-600" />
            <span className="min-w-0 flex-1 break-all">{link}</span>
            <ExternalLink size={16} aria-hidden className="shrink-0 text-slate-600" />
          </a>
        </li>
      ))}
    </ul>
  );
}
