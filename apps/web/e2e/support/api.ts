import { randomUUID } from 'node:crypto';

/**
 * Test setup over HTTP against the running server: the same calls the app makes, used to create
 * users and tasks before a browser opens, and to read back what the browser did.
 */
export interface ApiUser {
  _id: string;
  name: string;
  email: string;
  role: 'admin' | 'member';
  profileImageUrl: string | null;
}

export interface ApiTask {
  _id: string;
  title: string;
  description: string;
  priority: 'Low' | 'Medium' | 'High';
  status: 'Pending' | 'In Progress' | 'Completed';
  progress: number;
  dueDate: string;
  createdAt: string;
  assignedTo: { _id: string; name: string; email: string; profileImageUrl: string | null }[];
  todoChecklist: { _id: string; text: string; completed: boolean }[];
  attachments: string[];
  completedTodoCount: number;
}

export interface SignedInUser {
  user: ApiUser;
  token: string;
  password: string;
}

export interface NewTask {
  title: string;
  description?: string;
  priority?: 'Low' | 'Medium' | 'High';
  dueDate?: string;
  assignedTo: string[];
  todoChecklist?: { text: string; completed?: boolean }[];
  attachments?: string[];
}

export interface AccountOptions {
  /**
   * The account's language, English unless given, as the web app's sign-up always sends one.
   * null: none, as an account made before languages were kept (the app then saves the one it
   * shows, a change that refetches everything the person's pages show).
   */
  language?: 'en' | 'de' | null;
}

/** A password that satisfies the server's rule (8 to 128 characters). */
export const TEST_PASSWORD = 'correct-horse-battery';

/** An e-mail nobody else in the test run has. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
}

export class ApiClient {
  constructor(
    readonly baseURL: string,
    private readonly inviteToken: string,
  ) {}

  async request<T>(method: string, path: string, token?: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.baseURL}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  private async register(
    name: string,
    email: string,
    adminInviteToken: string | undefined,
    { language = 'en' }: AccountOptions,
  ): Promise<SignedInUser> {
    const { token, ...user } = await this.request<ApiUser & { token: string }>(
      'POST',
      '/api/auth/register',
      undefined,
      {
        name,
        email,
        password: TEST_PASSWORD,
        adminInviteToken,
        ...(language !== null && { language }),
      },
    );
    return { user, token, password: TEST_PASSWORD };
  }

  /** Signs up an admin with the server's invite token. */
  registerAdmin(
    name: string,
    email = uniqueEmail('admin'),
    options: AccountOptions = {},
  ): Promise<SignedInUser> {
    return this.register(name, email, this.inviteToken, options);
  }

  /** Signs up a member (no invite token). */
  registerMember(
    name: string,
    email = uniqueEmail('member'),
    options: AccountOptions = {},
  ): Promise<SignedInUser> {
    return this.register(name, email, undefined, options);
  }

  createTask(adminToken: string, task: NewTask): Promise<ApiTask> {
    const body = {
      description: `${task.title}: description`,
      priority: 'Low',
      dueDate: '2031-03-15',
      todoChecklist: [{ text: 'First step' }],
      attachments: [],
      ...task,
    };
    return this.request<{ task: ApiTask }>('POST', '/api/tasks', adminToken, body).then(
      (answer) => answer.task,
    );
  }

  getTask(token: string, id: string): Promise<ApiTask> {
    return this.request<ApiTask>('GET', `/api/tasks/${id}`, token);
  }

  listTasks(token: string): Promise<{ tasks: ApiTask[]; statusSummary: Record<string, number> }> {
    return this.request('GET', '/api/tasks', token);
  }

  listMembers(
    adminToken: string,
  ): Promise<
    (ApiUser & { pendingTasks: number; inProgressTasks: number; completedTasks: number })[]
  > {
    // The list shows everyone (issue 18): the members are those with the member role.
    return this.request('GET', '/api/users?role=member', adminToken);
  }

  /** Ticks the first `count` checklist items (and unticks the rest) as the given user. */
  async tickFirst(token: string, task: ApiTask, count: number): Promise<ApiTask> {
    const todoChecklist = task.todoChecklist.map((item, index) => ({
      text: item.text,
      completed: index < count,
    }));
    const answer = await this.request<{ task: ApiTask }>(
      'PUT',
      `/api/tasks/${task._id}/todo`,
      token,
      { todoChecklist },
    );
    return answer.task;
  }
}
