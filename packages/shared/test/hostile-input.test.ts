import { describe, expect, it } from 'vitest';
import {
  createTaskSchema,
  createUserSchema,
  emailSchema,
  isEmail,
  isSafeText,
  loginSchema,
  nameSchema,
  newPasswordSchema,
  normalizeWebLink,
  registerSchema,
  replaceUnsafeCharacters,
  updateTaskSchema,
  updateUserSchema,
  userListQuerySchema,
  validationMessages as m,
} from '../src/index.js';
import { firstMessage, validTask } from './support.js';

/** The spec's pattern: the meaning isEmail keeps, without its quadratic backtracking. */
const SPEC_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

describe('e-mail check', () => {
  it('accepts and refuses exactly what the spec pattern does', () => {
    // Every string of up to 5 characters over the alphabet that matters to the pattern.
    const alphabet = ['a', '@', '.', ' ', '\t'];
    let strings = [''];
    let compared = 0;
    for (let length = 1; length <= 5; length++) {
      strings = strings.flatMap((prefix) => alphabet.map((char) => prefix + char));
      for (const value of strings) {
        expect(isEmail(value), JSON.stringify(value)).toBe(SPEC_EMAIL.test(value));
        compared++;
      }
    }
    expect(compared).toBe(3905);
  });

  it('refuses the backtracking input and over-long addresses by their length first', () => {
    // The spec pattern backtracks quadratically when a long run of dots does not end well.
    const attack = `a@${'.'.repeat(100_000)}@`;
    expect(isEmail(attack)).toBe(false);
    expect(firstMessage(emailSchema.safeParse(attack))).toBe(m.invalidEmail);
    expect(firstMessage(emailSchema.safeParse(`${'a'.repeat(250)}@b.co`))).toBe(m.invalidEmail);
    expect(emailSchema.parse(`${'a'.repeat(240)}@example.com`)).toHaveLength(252);
  });

  it('refuses control characters in an address', () => {
    expect(firstMessage(emailSchema.safeParse('ann\u0001@example.com'))).toBe(m.invalidEmail);
  });
});

describe('characters no text may hold', () => {
  const unsafe = [
    ...Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)).filter(
      (char) => !'\t\n\r'.includes(char),
    ),
    '\uFFFE',
    '\uFFFF',
    '\ud800',
    '\udbff',
    '\udc00',
    '\udfff',
    '\udc00\ud800',
  ];

  it.each(unsafe.map((char) => [JSON.stringify(char), char]))('refuses %s', (_label, char) => {
    expect(isSafeText(`a${char}b`)).toBe(false);
    expect(replaceUnsafeCharacters(`a${char}b`)).toMatch(/^a\uFFFD+b$/);
  });

  it('keeps tab, line breaks, paired surrogates (emoji) and the rest of Unicode', () => {
    const text = 'Tab\there\r\nline 😀 مرحبا \u202E \uFFFD \u2028 done';
    expect(isSafeText(text)).toBe(true);
    expect(replaceUnsafeCharacters(text)).toBe(text);
  });

  it('is refused by every text field of every schema', () => {
    const evil = 'Mallory\u0001\u000b\u001b[31m';
    expect(firstMessage(nameSchema.safeParse(evil))).toBe(m.unsafeCharacters);
    expect(firstMessage(createTaskSchema.safeParse({ ...validTask, title: evil }))).toBe(
      m.unsafeCharacters,
    );
    expect(firstMessage(createTaskSchema.safeParse({ ...validTask, description: evil }))).toBe(
      m.unsafeCharacters,
    );
    expect(
      firstMessage(
        createTaskSchema.safeParse({ ...validTask, todoChecklist: [{ text: `x\ud800` }] }),
      ),
    ).toBe(m.unsafeCharacters);
    expect(firstMessage(userListQuerySchema.safeParse({ search: 'a\uFFFF' }))).toBe(
      m.unsafeCharacters,
    );
    expect(firstMessage(newPasswordSchema.safeParse('secret\u0000word'))).toBe(m.unsafeCharacters);
    expect(
      firstMessage(updateTaskSchema.safeParse({ attachments: ['https://a.com/\u0007'] })),
    ).toBe(m.invalidAttachment);
  });
});

describe('over-long values are refused before any other check', () => {
  // Each is too long and also wrong in another way: the length is what is reported.
  it.each([
    ['name', () => nameSchema.safeParse('\u0001'.repeat(100_000)), m.nameTooLong],
    [
      'title',
      () => createTaskSchema.safeParse({ ...validTask, title: '\u0001'.repeat(100_000) }),
      m.titleTooLong,
    ],
    [
      'description',
      () => createTaskSchema.safeParse({ ...validTask, description: '\ud800'.repeat(10_001) }),
      m.descriptionTooLong,
    ],
    [
      'checklist item',
      () =>
        createTaskSchema.safeParse({
          ...validTask,
          todoChecklist: [{ text: '\u0000'.repeat(501) }],
        }),
      m.todoTextTooLong,
    ],
    ['password', () => newPasswordSchema.safeParse(' '.repeat(129)), m.passwordTooLong],
    [
      'sign-in password',
      () => loginSchema.safeParse({ email: 'a@b.co', password: 'x'.repeat(1025) }),
      m.passwordTooLong,
    ],
    [
      'due date',
      () =>
        createTaskSchema.safeParse({ ...validTask, dueDate: `2030-01-01${' '.repeat(100_000)}` }),
      m.dueDateInvalid,
    ],
    [
      'search',
      () => userListQuerySchema.safeParse({ search: '\u0001'.repeat(101) }),
      m.invalidSearch,
    ],
  ])('%s', (_field, parse, message) => {
    expect(firstMessage(parse())).toBe(message);
  });
});

describe('links', () => {
  it.each([
    ['https://example.com/a?b=c', 'https://example.com/a?b=c'],
    ['http://example.com', 'http://example.com/'],
    ['HTTPS://Example.COM/Doc', 'https://example.com/Doc'],
    ['example.com/doc.pdf', 'https://example.com/doc.pdf'],
    ['localhost:3000/x', 'https://localhost:3000/x'],
    ['docs.example.com:8443', 'https://docs.example.com:8443/'],
    ['https://example.com/😀', 'https://example.com/%F0%9F%98%80'],
  ])('stores %s as %s', (link, stored) => {
    expect(normalizeWebLink(link)).toBe(stored);
  });

  it.each([
    'javascript:1/alert(1)',
    'javascript:alert(1)',
    'JavaScript:1/alert(1)',
    'data:1/x,<script>alert(1)</script>',
    'data:text/html,<script>1</script>',
    'vbscript:1/x',
    'vbscript:msgbox',
    'file:///etc/passwd',
    'file:1/etc/passwd',
    '//evil.example/x',
    '\\\\evil.example\\x',
    '/relative/path',
    'https://',
    'https://user:pass@example.com/',
    'https://example.com@evil.example/',
    'has space.com',
    'https://exa\tmple.com',
    `https://example.com/${'a'.repeat(2048)}`,
  ])('refuses %s', (link) => {
    expect(normalizeWebLink(link)).toBeUndefined();
  });

  it('stores a task’s attachments normalised and refuses the unsafe ones', () => {
    const parsed = createTaskSchema.parse({
      ...validTask,
      attachments: [' example.com/a ', '', 'https://b.example/c'],
    });
    expect(parsed.attachments).toEqual(['https://example.com/a', 'https://b.example/c']);
    for (const link of ['javascript:1/alert(1)', '//evil.example/x', 'vbscript:1/x']) {
      expect(firstMessage(createTaskSchema.safeParse({ ...validTask, attachments: [link] }))).toBe(
        m.invalidAttachment,
      );
    }
  });
});

describe('weak passwords', () => {
  it.each([
    ['        ', m.passwordBlank],
    [' \t \t \t \t', m.passwordBlank],
    ['aaaaaaaa', m.passwordOneCharacter],
    ['11111111', m.passwordOneCharacter],
    ['😀😀😀😀😀😀😀😀', m.passwordOneCharacter],
  ])('refuses %j', (password, message) => {
    expect(firstMessage(newPasswordSchema.safeParse(password))).toBe(message);
  });

  const account = { name: 'Ann Example', email: 'ann.example@example.com' };
  it.each([
    ['the e-mail address', 'ann.example@example.com'],
    ['the e-mail in other case', 'Ann.Example@Example.com'],
    ['the part before the @', 'ann.example'],
    ['the name', 'Ann Example'],
    ['the name without spaces', 'annexample'],
  ])('refuses %s as the password at sign-up and when an admin adds a user', (_label, password) => {
    expect(firstMessage(registerSchema.safeParse({ ...account, password }))).toBe(
      m.passwordLikeAccount,
    );
    expect(firstMessage(createUserSchema.safeParse({ ...account, password }))).toBe(
      m.passwordLikeAccount,
    );
  });

  it('refuses an admin edit that sets a password equal to the e-mail or name it sends', () => {
    expect(
      firstMessage(updateUserSchema.safeParse({ name: 'Bob Builder', password: 'bob builder' })),
    ).toBe(m.passwordLikeAccount);
  });

  it('accepts a password that only contains the name', () => {
    expect(
      registerSchema.safeParse({ ...account, password: 'Ann Example rides 4 bikes' }).success,
    ).toBe(true);
  });
});
