import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';

/** "Created: <title>" above a form: the task just saved, one click away on its own page. */
export function CreatedTaskLink({
  label,
  task,
  className = '',
}: {
  label: string;
  task: { _id: string; title: string };
  className?: string;
}) {
  return (
    <p
      role="status"
      className={`rounded-md bg-green-50 px-3 py-2 text-sm text-green-900 ${className}`}
    >
      {label}{' '}
      <Link to={paths.admin.taskPage.to(task._id)} className="font-medium text-green-900 underline">
        {task.title}
      </Link>
    </p>
  );
}
