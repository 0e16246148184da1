import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Avatar } from '../../../components/ui/avatar';
import { Button } from '../../../components/ui/button';
import { errorMessage } from '../../../lib/api-client';
import { useT } from '../../../lib/i18n';
import { usePeople, useAddComment, type Person } from './timeline-api';

/** The `@name` being typed just before the caret, if any. */
export function mentionQueryAt(
  text: string,
  caret: number,
): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const match = /(^|\s)@([\p{L}\p{N}._-]{0,40})$/u.exec(before);
  if (!match) return null;
  return { start: caret - match[2]!.length - 1, query: match[2]! };
}

/** `@Name` as a whole: at the start or after a space, and not followed by more of a name. */
function mentionPattern(name: string): RegExp {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|\\s)@${escaped}(?![\\p{L}\\p{N}_-])`, 'gu');
}

/**
 * Reads the text's mentions against `people`: the ids of those named as `@Name` (picked from the
 * list, or a name typed in full; a mention deleted from the text is dropped), and the `@words`
 * left that name no one who can see the task. Longest names first: `@Ann Lee` is not `@Ann`.
 */
export function readMentions(text: string, people: readonly Person[]) {
  const ids = new Set<string>();
  let rest = text;
  for (const person of [...people].sort((a, b) => b.name.length - a.name.length)) {
    const pattern = mentionPattern(person.name);
    if (!pattern.test(rest)) continue;
    ids.add(person._id);
    rest = rest.replace(pattern, '$1');
  }
  const words = [...rest.matchAll(/(?:^|\s)@([\p{L}\p{N}._-]*[\p{L}\p{N}_-])/gu)];
  return { ids: [...ids], unknown: [...new Set(words.map((match) => `@${match[1]}`))] };
}

const draftKey = (taskId: string) => `comment-draft:${taskId}`;

/** The comment someone typed on a task and has not posted (kept for this browser tab). */
export function readCommentDraft(taskId: string): string {
  try {
    return sessionStorage.getItem(draftKey(taskId)) ?? '';
  } catch {
    return '';
  }
}

/**
 * The comment box: Markdown, `@` offers the people who can see the task. What is typed is kept
 * (per task, for this browser tab) until it is posted, so leaving the page loses nothing.
 */
export function CommentBox({ taskId }: { taskId: string }) {
  const t = useT();
  const [body, setBody] = useState(() => readCommentDraft(taskId));
  const [chosen, setChosen] = useState<Person[]>([]);
  const [mention, setMention] = useState<{ start: number; query: string } | null>(null);
  const [highlighted, setHighlighted] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  /** Where the caret goes once the text with a chosen name is on screen. */
  const caretAfterPick = useRef<number | null>(null);
  const listId = useId();
  const add = useAddComment(taskId);
  const [unknown, setUnknown] = useState<string[]>([]);
  // Asked as soon as the text may mention someone: what was typed in full is resolved on posting.
  const people = usePeople(taskId, mention !== null || /(^|\s)@/.test(body));

  useEffect(() => {
    try {
      if (body) sessionStorage.setItem(draftKey(taskId), body);
      else sessionStorage.removeItem(draftKey(taskId));
    } catch {
      // Storage unavailable: the draft lives as long as the page.
    }
  }, [body, taskId]);

  // Right after React writes the new text, in the same task: a caret set a frame later (with
  // requestAnimationFrame) would land in the middle of whatever the person typed in between.
  useLayoutEffect(() => {
    const position = caretAfterPick.current;
    if (position === null || !field.current) return;
    caretAfterPick.current = null;
    field.current.focus();
    field.current.setSelectionRange(position, position);
  });

  const matches =
    mention && people.data
      ? people.data
          .filter((person) => person.name.toLowerCase().includes(mention.query.toLowerCase()))
          .slice(0, 8)
      : [];
  const open = mention !== null && matches.length > 0;

  function track(text: string, caret: number) {
    setBody(text);
    setUnknown([]);
    setMention(mentionQueryAt(text, caret));
    setHighlighted(0);
  }

  function pick(person: Person) {
    if (!mention) return;
    const caret = field.current?.selectionStart ?? body.length;
    const inserted = `@${person.name} `;
    const next = body.slice(0, mention.start) + inserted + body.slice(caret);
    setBody(next);
    setChosen((list) => (list.some((p) => p._id === person._id) ? list : [...list, person]));
    setMention(null);
    caretAfterPick.current = mention.start + inserted.length;
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (!open) {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        submit();
      }
      return;
    }
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setHighlighted((index) => (index + step + matches.length) % matches.length);
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault();
      pick(matches[highlighted]!);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      setMention(null);
    }
  }

  function submit() {
    if (!body.trim()) {
      setError(t('timeline.commentRequired'));
      return;
    }
    setError(null);
    const mentions = readMentions(body, [...chosen, ...(people.data ?? [])]);
    add.mutate(
      { body, mentions: mentions.ids },
      {
        onSuccess: () => {
          // Someone named who cannot see the task was not told: say so (only once the people
          // who can see it are known).
          setUnknown(people.data ? mentions.unknown : []);
          setBody('');
          setChosen([]);
        },
        // What was typed stays in the box.
        onError: (failure) => setError(errorMessage(failure, t('timeline.postFailed'))),
      },
    );
  }

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      noValidate
      className="relative flex flex-col gap-2"
    >
      <label htmlFor={`${listId}-field`} className="text-sm font-medium text-slate-700">
        {t('timeline.addComment')}
      </label>
      <textarea
        id={`${listId}-field`}
        ref={field}
        value={body}
        rows={3}
        maxLength={10_000}
        placeholder={t('timeline.placeholder')}
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open ? `${listId}-${highlighted}` : undefined}
        onChange={(event) => track(event.target.value, event.target.selectionStart)}
        onKeyDown={onKeyDown}
        onBlur={() => setTimeout(() => setMention(null), 150)}
        className="w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900"
      />
      {open && (
        <ul
          id={listId}
          role="listbox"
          aria-label={t('timeline.mentionSomeone')}
          className="absolute top-full z-10 mt-1 max-h-60 w-72 overflow-auto rounded-md border border-slate-200 bg-white shadow-lg"
        >
          {matches.map((person, index) => (
            <li
              key={person._id}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === highlighted}
              onMouseDown={(event) => {
                event.preventDefault();
                pick(person);
              }}
              className={`flex cursor-pointer items-center gap-2 px-3 py-2 text-sm text-slate-900 ${
                index === highlighted ? 'bg-blue-50' : ''
              }`}
            >
              <span aria-hidden>
                <Avatar person={person} size={24} />
              </span>
              <span className="min-w-0 wrap-anywhere">{person.name}</span>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      {unknown.length > 0 && (
        <p role="status" className="text-sm text-amber-800">
          {t('timeline.notMentioned', { names: unknown.join(', ') })}
        </p>
      )}
      <p className="text-xs text-slate-600">{t('timeline.markdownHint')}</p>
      <div>
        <Button type="submit" disabled={add.isPending}>
          {t('timeline.post')}
        </Button>
      </div>
    </form>
  );
}
