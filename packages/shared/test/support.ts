/** The first issue's message of a safeParse result; undefined when it succeeded. */
export const firstMessage = (result: {
  success: boolean;
  error?: { issues: { message: string }[] };
}) => (result.success ? undefined : result.error?.issues[0]?.message);

/** A task every schema accepts: tests change one field at a time. */
export const validTask = {
  title: 'Ship it',
  description: 'All of it',
  dueDate: '2030-01-31',
  assignedTo: ['3f1c2a34-5b6d-4e7f-8a9b-0c1d2e3f4a5b'],
  todoChecklist: [{ text: 'one', completed: false }],
};
