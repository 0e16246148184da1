import type { ApiClient, ApiTask, NewTask, SignedInUser } from './api.js';

/** A task of the fixture: its title and due day, assigned to the member; `done` ticks its one item. */
export interface MemberTask {
  title: string;
  dueDate: string;
  done?: boolean;
}

/**
 * An admin (Ada Admin) and a member (Mia Member) with tasks assigned to her, made through the
 * API; answers the created tasks in the order given.
 */
export async function adminAndMemberWithTasks(
  api: ApiClient,
  tasks: readonly MemberTask[],
): Promise<{ admin: SignedInUser; member: SignedInUser; tasks: ApiTask[] }> {
  const admin = await api.registerAdmin('Ada Admin');
  const member = await api.registerMember('Mia Member');
  const created: ApiTask[] = [];
  for (const task of tasks) {
    const input: NewTask = {
      title: task.title,
      dueDate: task.dueDate,
      assignedTo: [member.user._id],
      ...(task.done && { todoChecklist: [{ text: 'Done', completed: true }] }),
    };
    created.push(await api.createTask(admin.token, input));
  }
  return { admin, member, tasks: created };
}
