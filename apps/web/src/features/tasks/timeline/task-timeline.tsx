import type { Activity, Comment } from '@task-manager/shared';
import { useMemo, useState } from 'react';
import { Avatar } from '../../../components/ui/avatar';
import { Button } from '../../../components/ui/button';
import { ErrorState, Spinner } from '../../../components/ui/feedback';
import { Markdown } from '../../../components/ui/markdown';
import { errorMessage } from '../../../lib/api-client';
import { useT } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { CommentBox } from './comment-box';
import { describeActivity } from '../../../lib/describe-activity';
import { useActivity, useComments, useDeleteComment, useEditComment } from './timeline-api';

type Entry =
  | { kind: 'comment'; at: string; comment: Comment }
  | { kind: 'activity'; at: string; activity: Activity };

function when(at: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleString(document.documentElement.lang || undefined, {
        dateStyle: 'medium',
        timeStyle: 'short',
      });
}

/**
 * A task's comments and history as one timeline, oldest first and newest at the bottom, with the
 * comment box under it. A comment's own "comment.added" entry is not shown twice.
 */
export function TaskTimeline({ taskId }: { taskId: string }) {
  const t = useT();
  const comments = useComments(taskId);
  const activity = useActivity(taskId);

  const entries = useMemo<Entry[]>(() => {
    const list: Entry[] = [
      ...(comments.data?.pages.flatMap((page) => page.items) ?? []).map((comment): Entry => ({
        kind: 'comment',
        at: comment.createdAt,
        comment,
      })),
      ...(activity.data?.pages.flatMap((page) => page.items) ?? [])
        .filter((item) => item.type !== 'comment.added')
        .map((item): Entry => ({ kind: 'activity', at: item.at, activity: item })),
    ];
    return list.sort((a, b) => a.at.localeCompare(b.at));
  }, [comments.data, activity.data]);

  const more = comments.hasNextPage || activity.hasNextPage;
  const loadingMore = comments.isFetchingNextPage || activity.isFetchingNextPage;

  return (
    <section
      aria-labelledby="timeline-heading"
      className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-5"
    >
      <h2 id="timeline-heading" className="text-base font-semibold text-slate-900">
        {t('timeline.heading')}
      </h2>
      {comments.isPending || activity.isPending ? (
        <Spinner label={t('common.loading')} />
      ) : comments.isError || activity.isError ? (
        <ErrorState
          message={t('timeline.loadFailed')}
          onRetry={() => {
            void comments.refetch();
            void activity.refetch();
          }}
        />
      ) : (
        <ol aria-label={t('timeline.heading')} className="flex flex-col gap-3">
          {entries.map((entry) =>
            entry.kind === 'comment' ? (
              <CommentEntry
                key={`c-${entry.comment._id}`}
                taskId={taskId}
                comment={entry.comment}
              />
            ) : (
              <ActivityEntry key={`a-${entry.activity._id}`} activity={entry.activity} />
            ),
          )}
          {entries.length === 0 && (
            <li className="text-sm text-slate-600">{t('timeline.empty')}</li>
          )}
        </ol>
      )}
      {more && (
        <div>
          <Button
            variant="secondary"
            disabled={loadingMore}
            onClick={() => {
              if (comments.hasNextPage) void comments.fetchNextPage();
              if (activity.hasNextPage) void activity.fetchNextPage();
            }}
          >
            {t('timeline.showMore')}
          </Button>
        </div>
      )}
      <CommentBox taskId={taskId} />
    </section>
  );
}

function ActivityEntry({ activity }: { activity: Activity }) {
  const t = useT();
  return (
    <li className="flex items-start gap-2 text-sm text-slate-700">
      <span aria-hidden className="mt-1.5 h-2 w-2 shrink-0 rounded-full bg-slate-400" />
      {/* Names are one word sometimes, and long: they wrap anywhere rather than widen the page. */}
      <p className="min-w-0 wrap-anywhere">
        <span className="font-medium text-slate-900">
          {activity.actor?.name ?? t('timeline.someone')}
        </span>{' '}
        {describeActivity(activity, t)}{' '}
        <time dateTime={activity.at} className="text-slate-600">
          · {when(activity.at)}
        </time>
      </p>
    </li>
  );
}

function CommentEntry({ taskId, comment }: { taskId: string; comment: Comment }) {
  const t = useT();
  const { user } = useSession();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(comment.body);
  const [error, setError] = useState<string | null>(null);
  const edit = useEditComment(taskId);
  const remove = useDeleteComment(taskId);
  const mine = !!user && comment.author?._id === user._id;
  const mayDelete = mine || user?.role === 'admin';
  const author = comment.author ?? { name: t('timeline.deletedUser'), profileImageUrl: null };

  function save() {
    if (!draft.trim()) {
      setError(t('timeline.commentRequired'));
      return;
    }
    setError(null);
    edit.mutate(
      { id: comment._id, body: draft, mentions: comment.mentions },
      {
        onSuccess: () => setEditing(false),
        onError: (failure) => setError(errorMessage(failure, t('timeline.saveFailed'))),
      },
    );
  }

  return (
    <li className="flex gap-3 rounded-md border border-slate-200 p-3">
      <Avatar person={author} size={32} />
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <p className="text-sm wrap-anywhere">
          <span className="font-medium text-slate-900">{author.name}</span>{' '}
          <time dateTime={comment.createdAt} className="text-slate-600">
            {when(comment.createdAt)}
          </time>
          {comment.edited && <span className="text-slate-600"> · {t('timeline.edited')}</span>}
        </p>
        {editing ? (
          <div className="flex flex-col gap-2">
            <textarea
              aria-label={t('timeline.editComment')}
              value={draft}
              maxLength={10_000}
              onChange={(event) => setDraft(event.target.value)}
              rows={4}
              className="w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900"
            />
            {error && (
              <p role="alert" className="text-sm text-red-700">
                {error}
              </p>
            )}
            <div className="flex gap-2">
              <Button disabled={edit.isPending} onClick={save}>
                {t('common.save')}
              </Button>
              <Button
                variant="secondary"
                onClick={() => {
                  setEditing(false);
                  setDraft(comment.body);
                  setError(null);
                }}
              >
                {t('common.cancel')}
              </Button>
            </div>
          </div>
        ) : (
          <Markdown text={comment.body} />
        )}
        {!editing && (mine || mayDelete) && (
          <div className="flex gap-2">
            {mine && (
              <Button variant="ghost" className="px-2 py-1" onClick={() => setEditing(true)}>
                {t('timeline.edit')}
              </Button>
            )}
            {mayDelete && (
              <Button
                variant="ghost"
                className="px-2 py-1"
                disabled={remove.isPending}
                onClick={() => {
                  if (!window.confirm(t('timeline.confirmDelete'))) return;
                  remove.mutate(comment._id, {
                    onError: (failure) =>
                      notify('error', errorMessage(failure, t('timeline.deleteFailed'))),
                  });
                }}
              >
                {t('timeline.delete')}
              </Button>
            )}
          </div>
        )}
      </div>
    </li>
  );
}
