import { describe, expect, it } from 'vitest';
import {
  createTaskSchema,
  isSafeWebLink,
  loginSchema,
  registerSchema,
  updateProfileSchema,
  updateTaskSchema,
  updateUserSchema,
  validationMessages as m,
} from '../src/index.js';
import { firstMessage, validTask } from './support.js';

describe('login and sign-up', () => {
  it.each([
    ['', m.invalidEmail],
    ['no-at-sign.com', m.invalidEmail],
    ['a@b', m.invalidEmail],
    ['white space@example.com', m.invalidEmail],
  ])('refuses the e-mail %j', (email, message) => {
    expect(firstMessage(loginSchema.safeParse({ email, password: 'x' }))).toBe(message);
  });

  it('asks for the password', () => {
    expect(firstMessage(loginSchema.safeParse({ email: 'a@b.co', password: '' }))).toBe(
      m.passwordRequired,
    );
  });

  it('trims and lower-cases the e-mail', () => {
    expect(loginSchema.parse({ email: '  Ann@Example.COM ', password: 'x' }).email).toBe(
      'ann@example.com',
    );
  });

  it('checks the name first, then the e-mail, then the password length', () => {
    expect(firstMessage(registerSchema.safeParse({ name: ' ', email: 'x', password: '' }))).toBe(
      m.invalidFullName,
    );
    expect(
      firstMessage(registerSchema.safeParse({ name: 'Ann', email: 'a@b.co', password: 'short' })),
    ).toBe(m.passwordTooShort);
    expect(
      firstMessage(
        registerSchema.safeParse({ name: 'Ann', email: 'a@b.co', password: 'x'.repeat(129) }),
      ),
    ).toBe(m.passwordTooLong);
  });

  it('treats a blank invite token and photo as absent', () => {
    const parsed = registerSchema.parse({
      name: 'Ann',
      email: 'a@b.co',
      password: '12345678',
      adminInviteToken: ' ',
      profileImageUrl: '',
    });
    expect(parsed.adminInviteToken).toBeUndefined();
    expect(parsed.profileImageUrl).toBeNull();
  });

  it("refuses a photo that is not one of this server's images", () => {
    const base = { name: 'Ann', email: 'a@b.co', password: '12345678' };
    for (const profileImageUrl of [
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      '/x.png',
      'https://example.com/me.png',
    ]) {
      expect(firstMessage(registerSchema.safeParse({ ...base, profileImageUrl }))).toBe(
        m.invalidImageUrl,
      );
    }
  });

  it('needs the current password to set a new one', () => {
    expect(firstMessage(updateProfileSchema.safeParse({ newPassword: 'abcdefgh' }))).toBe(
      m.currentPasswordRequired,
    );
  });

  it('leaves the photo alone when an update does not mention it', () => {
    expect(updateUserSchema.parse({ name: 'Bo' }).profileImageUrl).toBeUndefined();
    expect(updateUserSchema.parse({ profileImageUrl: null }).profileImageUrl).toBeNull();
  });
});

describe('task form rules, in the order of spec section 5', () => {
  it.each([
    [{}, m.titleRequired],
    [{ title: '   ' }, m.titleRequired],
    [{ title: 'T' }, m.descriptionRequired],
    [{ title: 'T', description: ' ' }, m.descriptionRequired],
    [{ title: 'T', description: 'D' }, m.dueDateRequired],
    [{ title: 'T', description: 'D', dueDate: '' }, m.dueDateRequired],
    [{ title: 'T', description: 'D', dueDate: 'tomorrow' }, m.dueDateInvalid],
    [{ title: 'T', description: 'D', dueDate: '2030-02-31T00:00:00Z' }, m.dueDateInvalid],
    [{ title: 'T', description: 'D', dueDate: '2030-01-01' }, m.notAssigned],
    [{ title: 'T', description: 'D', dueDate: '2030-01-01', assignedTo: [] }, m.notAssigned],
    [
      { title: 'T', description: 'D', dueDate: '2030-01-01', assignedTo: validTask.assignedTo },
      m.todoRequired,
    ],
    [
      {
        title: 'T',
        description: 'D',
        dueDate: '2030-01-01',
        assignedTo: validTask.assignedTo,
        todoChecklist: [],
      },
      m.todoRequired,
    ],
  ])('%j is refused with %j', (input, message) => {
    expect(firstMessage(createTaskSchema.safeParse(input))).toBe(message);
  });

  it('fills defaults and normalises', () => {
    const task = createTaskSchema.parse({
      ...validTask,
      title: '  Ship it  ',
      attachments: ['  ', 'https://example.com/a', ''],
    });
    expect(task.title).toBe('Ship it');
    expect(task.priority).toBe('Low');
    expect(task.dueDate).toBe('2030-01-31T00:00:00.000Z');
    expect(task.attachments).toEqual(['https://example.com/a']);
  });

  it('drops duplicate assignees', () => {
    const id = validTask.assignedTo[0]!;
    expect(createTaskSchema.parse({ ...validTask, assignedTo: [id, id] }).assignedTo).toEqual([id]);
  });

  it('refuses blank checklist items and bad priorities', () => {
    expect(
      firstMessage(createTaskSchema.safeParse({ ...validTask, todoChecklist: [{ text: ' ' }] })),
    ).toBe(m.todoTextBlank);
    expect(firstMessage(createTaskSchema.safeParse({ ...validTask, priority: 'Urgent' }))).toBe(
      m.invalidPriority,
    );
  });

  it('strips fields the client may not set', () => {
    const task = createTaskSchema.parse({ ...validTask, status: 'Completed', progress: 100 });
    expect(task).not.toHaveProperty('status');
    expect(task).not.toHaveProperty('progress');
  });

  it('lets an update send only some fields, each under the create rules', () => {
    expect(updateTaskSchema.parse({ priority: 'High' })).toEqual({ priority: 'High' });
    expect(firstMessage(updateTaskSchema.safeParse({ assignedTo: [] }))).toBe(m.notAssigned);
    expect(firstMessage(updateTaskSchema.safeParse({ title: '' }))).toBe(m.titleRequired);
  });
});

describe('links', () => {
  it.each([
    ['https://example.com/a?b=c', true],
    ['http://example.com', true],
    ['example.com/doc.pdf', true],
    ['localhost:3000/x', true],
    ['javascript:alert(1)', false],
    ['JavaScript:alert(1)', false],
    ['data:text/html,<script>1</script>', false],
    ['vbscript:msgbox', false],
    ['file:///etc/passwd', false],
    ['https://', false],
    ['has space.com', false],
  ])('%s is %s', (link, safe) => {
    expect(isSafeWebLink(link)).toBe(safe);
  });

  it('refuses unsafe attachments in a task', () => {
    expect(
      firstMessage(createTaskSchema.safeParse({ ...validTask, attachments: ['javascript:x'] })),
    ).toBe(m.invalidAttachment);
  });
});

describe('partial updates', () => {
  it('an update must send at least one field it can change', () => {
    expect(firstMessage(updateTaskSchema.safeParse({}))).toBe(m.nothingToUpdate);
    expect(firstMessage(updateUserSchema.safeParse({}))).toBe(m.nothingToUpdate);
    expect(firstMessage(updateProfileSchema.safeParse({}))).toBe(m.nothingToUpdate);
    // The current password alone changes nothing.
    expect(firstMessage(updateProfileSchema.safeParse({ currentPassword: 'x' }))).toBe(
      m.nothingToUpdate,
    );
  });

  it('one field is enough, and null (clear the photo) counts', () => {
    expect(updateTaskSchema.safeParse({ priority: 'High' }).success).toBe(true);
    expect(updateUserSchema.safeParse({ role: 'admin' }).success).toBe(true);
    expect(updateProfileSchema.safeParse({ profileImageUrl: null }).success).toBe(true);
  });

  it('reads a numeric invite token as its digits', () => {
    const base = { name: 'Ann', email: 'ann@example.com', password: 'long-enough' };
    const parsed = registerSchema.parse({ ...base, adminInviteToken: 424242 });
    expect(parsed.adminInviteToken).toBe('424242');
    expect(firstMessage(registerSchema.safeParse({ ...base, adminInviteToken: true }))).toBe(
      m.inviteTokenFormat,
    );
  });
});
