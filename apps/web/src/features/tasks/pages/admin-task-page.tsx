import { Pencil } from 'lucide-react';
import { Link, useParams } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { useT } from '../../../lib/i18n';
import { TaskView } from './task-details-page';
import { UpdateTaskForm } from './update-task-form';

/** /admin/tasks/:id — one task's page for admins: the read view, with Edit. */
export function AdminTaskPage() {
  const t = useT();
  return (
    <TaskView
      action={(task) => (
        <Link
          to={paths.admin.editTask.to(task._id)}
          className="inline-flex items-center gap-2 rounded-md bg-blue-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-800"
        >
          <Pencil size={14} aria-hidden />
          {t('tasks.edit')}
        </Link>
      )}
    />
  );
}

/** /admin/tasks/:id/edit — the edit form of one task, by link (as /admin/create-task with state). */
export function EditTaskPage() {
  const { id = '' } = useParams();
  return <UpdateTaskForm key={id} taskId={id} />;
}
